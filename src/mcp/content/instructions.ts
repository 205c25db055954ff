/** What the server tells the model about working with this home. Kept short: it is sent on every initialize. */
export const SERVER_INSTRUCTIONS = [
  'Tools for one Home Assistant home. Work like this:',
  '- Find entities first with ha_search_entities (names, areas, aliases; any language), then refine with ha_list_entities filters (domain, area, floor, label, state) instead of listing everything.',
  '- ha_get_entity gives one entity\'s full state and attributes.',
  '- Answers are capped near 15 KB; follow has_more/next_offset (pass it as offset; limit is the page size) or narrow the query when told so.',
  '- For long time windows prefer ha_get_statistics over ha_get_history.',
  '- For "what is wrong" start with ha_get_health; ha_get_self_test checks the add-on\'s own link to Home Assistant.',
  '- Every write takes dry_run (true: preview only, nothing changes) and confirm_token. Before any write, call it with dry_run: true and show the user what would happen; sensitive actions return a confirm_token that must be passed back unchanged, only once the user agreed.',
  '- Before a bulk or hard-to-reverse change, offer a backup (ha_manage_config kind backup); ha_undo reverts the last write.'
].join('\n')
