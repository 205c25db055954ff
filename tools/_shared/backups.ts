/** What to do when the Supervisor refuses backups: said by ha_manage_config kind backup, ha_get_system and ha_get_self_test. */
export const ROLE_HINT = 'The add-on needs hassio_role: backup in its config.yaml (the published add-on has it); update or reinstall it.'
