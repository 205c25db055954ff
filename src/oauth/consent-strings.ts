/**
 * The consent page's words in the languages of the panel (ingress/public/i18n), chosen from the
 * browser's Accept-Language, English as the fallback. Values are trusted HTML (<b>, <i>); the
 * {placeholders} are filled with escaped text. Tab and button names match the panel's translations.
 */
import type { Scope } from '../auth/identity.ts'
import { SCOPE_MEANING } from './scopes.ts'

export interface ConsentStrings {
  title: string
  heading: string
  intro: string
  /** A client known by its metadata document URL: {host} is its domain, {url} the document. */
  clientOrigin: string
  requestCode: string
  checkCode: string
  mayHeading: string
  chooseHint: string
  approveInPanel: string
  waiting: string
  orHere: string
  tokenLabel: string
  allow: string
  deny: string
  offNote: string
  approved: string
  denied: string
  expired: string
  finished: string
  level: Record<Scope, string>
  meaning: Record<Scope, string>
  /** The fixed error sentences of routes/oauth.ts, by their English text. */
  errors: Record<string, string>
}

const WRONG_TOKEN = 'That is not the add-on\'s API token.'
const NO_TOKEN = 'Enter the add-on\'s API token, or approve in the panel.'

export const CONSENT_STRINGS: Record<string, ConsentStrings> = {
  en: {
    title: 'Allow {client}? · Home Assistant MCP',
    heading: 'Allow {client} to use your home?',
    intro: 'It asks to use the MCP server add-on of this Home Assistant. After your answer you go back to {host}.',
    clientOrigin: 'This app is {host}: the add-on read its description at\n{url}. The name above is what that site calls itself; the site is what to trust.',
    requestCode: 'Request code',
    checkCode: 'Check that the MCP panel in Home Assistant\'s sidebar shows the same code. The request expires in {minutes} minutes.',
    mayHeading: 'It may (one level: each includes the ones above it in this list)',
    chooseHint: 'Choose the lowest level it needs. The add-on options still cap everything.',
    approveInPanel: '<b>Approve in Home Assistant:</b> open <i>MCP</i> in the sidebar, tab <i>Sign-ins</i>, and press <i>Approve</i> next to this code. This page continues by itself.',
    waiting: 'Waiting for approval…',
    orHere: '<b>Or approve here</b> with the add-on\'s API token (sidebar MCP, Connect tab):',
    tokenLabel: 'API token',
    allow: 'Allow',
    deny: 'Deny',
    offNote: '(switched off in the add-on options: does nothing until switched on there)',
    approved: 'Approved, returning to the app…',
    denied: 'Denied.',
    expired: 'This request expired: start again from the app.',
    finished: 'The app finished signing in from another window: you can close this one.',
    level: { read: 'read', write: 'write', manage: 'manage', camera: 'camera' },
    meaning: SCOPE_MEANING,
    errors: {}
  },
  de: {
    title: '{client} erlauben? · Home Assistant MCP',
    heading: '{client} Zugriff auf dein Zuhause erlauben?',
    intro: 'Die App möchte das MCP-Server-Add-on dieses Home Assistant nutzen. Nach deiner Antwort geht es zurück zu {host}.',
    clientOrigin: 'Diese App ist {host}: Das Add-on hat ihre Beschreibung unter {url} gelesen. Der Name oben ist das, was diese Website über sich sagt; vertrauen solltest du der Website.',
    requestCode: 'Anfragecode',
    checkCode: 'Prüfe, ob das Panel MCP in der Seitenleiste von Home Assistant denselben Code zeigt. Die Anfrage läuft in {minutes} Minuten ab.',
    mayHeading: 'Sie darf (eine Stufe: jede schließt die darüber in dieser Liste ein)',
    chooseHint: 'Wähle die niedrigste Stufe, die sie braucht. Die Add-on-Optionen begrenzen weiterhin alles.',
    approveInPanel: '<b>In Home Assistant freigeben:</b> Öffne <i>MCP</i> in der Seitenleiste, Tab <i>Anmeldungen</i>, und drücke <i>Freigeben</i> neben diesem Code. Diese Seite geht dann von selbst weiter.',
    waiting: 'Warte auf Freigabe…',
    orHere: '<b>Oder hier freigeben</b> mit dem API-Token des Add-ons (Seitenleiste MCP, Tab Verbinden):',
    tokenLabel: 'API-Token',
    allow: 'Erlauben',
    deny: 'Ablehnen',
    offNote: '(in den Add-on-Optionen ausgeschaltet: wirkt erst, wenn es dort eingeschaltet ist)',
    approved: 'Freigegeben, zurück zur App…',
    denied: 'Abgelehnt.',
    expired: 'Diese Anfrage ist abgelaufen: Starte noch einmal in der App.',
    finished: 'Die App hat die Anmeldung in einem anderen Fenster abgeschlossen: Du kannst dieses schließen.',
    level: { read: 'lesen', write: 'schreiben', manage: 'verwalten', camera: 'Kamera' },
    meaning: {
      read: 'das Zuhause lesen: Zustände, Verlauf, Bereiche, Geräte, Automationen',
      write: 'lesen, Geräte steuern und Skripte ausführen (Dienstaufrufe)',
      manage: 'lesen, steuern und die Konfiguration ändern: Automationen, Skripte, Dashboards',
      camera: 'Kamerabilder sehen'
    },
    errors: { [WRONG_TOKEN]: 'Das ist nicht das API-Token des Add-ons.', [NO_TOKEN]: 'Gib das API-Token des Add-ons ein oder gib im Panel frei.' }
  },
  fr: {
    title: 'Autoriser {client} ? · Home Assistant MCP',
    heading: 'Autoriser {client} à utiliser votre maison ?',
    intro: 'L\'application demande à utiliser le module serveur MCP de ce Home Assistant. Après votre réponse, vous revenez à {host}.',
    clientOrigin: 'Cette application est {host} : le module a lu sa description à l\'adresse {url}. Le nom ci-dessus est celui que ce site se donne ; c\'est au site qu\'il faut se fier.',
    requestCode: 'Code de la demande',
    checkCode: 'Vérifiez que le panneau MCP de la barre latérale de Home Assistant affiche le même code. La demande expire dans {minutes} minutes.',
    mayHeading: 'Elle peut (un seul niveau : chacun inclut ceux qui le précèdent dans cette liste)',
    chooseHint: 'Choisissez le niveau le plus bas dont elle a besoin. Les options du module plafonnent toujours tout.',
    approveInPanel: '<b>Accepter dans Home Assistant :</b> ouvrez <i>MCP</i> dans la barre latérale, onglet <i>Demandes</i>, et appuyez sur <i>Accepter</i> à côté de ce code. Cette page continue d\'elle-même.',
    waiting: 'En attente de votre accord…',
    orHere: '<b>Ou acceptez ici</b> avec le jeton d\'API du module (barre latérale MCP, onglet Connexion) :',
    tokenLabel: 'Jeton d\'API',
    allow: 'Autoriser',
    deny: 'Refuser',
    offNote: '(désactivé dans les options du module : sans effet tant qu\'il n\'y est pas activé)',
    approved: 'Accepté, retour à l\'application…',
    denied: 'Refusé.',
    expired: 'Cette demande a expiré : recommencez depuis l\'application.',
    finished: 'L\'application a terminé sa connexion dans une autre fenêtre : vous pouvez fermer celle-ci.',
    level: { read: 'lecture', write: 'écriture', manage: 'gestion', camera: 'caméra' },
    meaning: {
      read: 'consulter la maison : états, historique, pièces, appareils, automatisations',
      write: 'consulter, piloter les appareils et lancer des scripts (appels de services)',
      manage: 'consulter, piloter et modifier la configuration : automatisations, scripts, tableaux de bord',
      camera: 'voir les images des caméras'
    },
    errors: { [WRONG_TOKEN]: 'Ce n\'est pas le jeton d\'API du module.', [NO_TOKEN]: 'Saisissez le jeton d\'API du module, ou acceptez dans le panneau.' }
  },
  es: {
    title: '¿Permitir {client}? · Home Assistant MCP',
    heading: '¿Permitir que {client} use tu casa?',
    intro: 'Pide usar el complemento de servidor MCP de este Home Assistant. Después de tu respuesta vuelves a {host}.',
    clientOrigin: 'Esta aplicación es {host}: el complemento leyó su descripción en {url}. El nombre de arriba es como se llama ese sitio a sí mismo; en quien hay que confiar es en el sitio.',
    requestCode: 'Código de la solicitud',
    checkCode: 'Comprueba que el panel MCP de la barra lateral de Home Assistant muestra el mismo código. La solicitud caduca en {minutes} minutos.',
    mayHeading: 'Puede (un solo nivel: cada uno incluye los anteriores de esta lista)',
    chooseHint: 'Elige el nivel más bajo que necesite. Las opciones del complemento siguen limitándolo todo.',
    approveInPanel: '<b>Aprobar en Home Assistant:</b> abre <i>MCP</i> en la barra lateral, pestaña <i>Accesos</i>, y pulsa <i>Aprobar</i> junto a este código. Esta página sigue sola.',
    waiting: 'Esperando la aprobación…',
    orHere: '<b>O aprueba aquí</b> con el token de API del complemento (barra lateral MCP, pestaña Conectar):',
    tokenLabel: 'Token de API',
    allow: 'Permitir',
    deny: 'Rechazar',
    offNote: '(desactivado en las opciones del complemento: no hace nada hasta que se active allí)',
    approved: 'Aprobado, volviendo a la aplicación…',
    denied: 'Rechazado.',
    expired: 'Esta solicitud caducó: empieza de nuevo desde la aplicación.',
    finished: 'La aplicación terminó de iniciar sesión en otra ventana: puedes cerrar esta.',
    level: { read: 'lectura', write: 'escritura', manage: 'gestión', camera: 'cámara' },
    meaning: {
      read: 'consultar la casa: estados, historial, áreas, dispositivos, automatizaciones',
      write: 'consultar, controlar dispositivos y ejecutar scripts (llamadas a servicios)',
      manage: 'consultar, controlar y cambiar la configuración: automatizaciones, scripts, paneles',
      camera: 'ver imágenes de las cámaras'
    },
    errors: { [WRONG_TOKEN]: 'Ese no es el token de API del complemento.', [NO_TOKEN]: 'Escribe el token de API del complemento, o aprueba en el panel.' }
  },
  nl: {
    title: '{client} toestaan? · Home Assistant MCP',
    heading: '{client} toegang geven tot je huis?',
    intro: 'De app wil de MCP-server-add-on van deze Home Assistant gebruiken. Na je antwoord ga je terug naar {host}.',
    clientOrigin: 'Deze app is {host}: de add-on las haar beschrijving op {url}. De naam hierboven is hoe die site zichzelf noemt; de site is wat je moet vertrouwen.',
    requestCode: 'Aanvraagcode',
    checkCode: 'Controleer of het paneel MCP in de zijbalk van Home Assistant dezelfde code toont. De aanvraag verloopt over {minutes} minuten.',
    mayHeading: 'Hij mag (één niveau: elk omvat de niveaus erboven in deze lijst)',
    chooseHint: 'Kies het laagste niveau dat hij nodig heeft. De add-on-opties begrenzen nog steeds alles.',
    approveInPanel: '<b>Goedkeuren in Home Assistant:</b> open <i>MCP</i> in de zijbalk, tabblad <i>Aanmeldingen</i>, en druk op <i>Goedkeuren</i> naast deze code. Deze pagina gaat daarna vanzelf verder.',
    waiting: 'Wacht op goedkeuring…',
    orHere: '<b>Of keur hier goed</b> met het API-token van de add-on (zijbalk MCP, tabblad Verbinden):',
    tokenLabel: 'API-token',
    allow: 'Toestaan',
    deny: 'Weigeren',
    offNote: '(uitgeschakeld in de add-on-opties: doet niets tot het daar aan staat)',
    approved: 'Goedgekeurd, terug naar de app…',
    denied: 'Geweigerd.',
    expired: 'Deze aanvraag is verlopen: begin opnieuw vanuit de app.',
    finished: 'De app heeft het aanmelden in een ander venster afgerond: je kunt dit venster sluiten.',
    level: { read: 'lezen', write: 'schrijven', manage: 'beheren', camera: 'camera' },
    meaning: {
      read: 'het huis bekijken: toestanden, geschiedenis, ruimtes, apparaten, automatiseringen',
      write: 'bekijken, apparaten bedienen en scripts uitvoeren (dienstaanroepen)',
      manage: 'bekijken, bedienen en de configuratie wijzigen: automatiseringen, scripts, dashboards',
      camera: 'camerabeelden zien'
    },
    errors: { [WRONG_TOKEN]: 'Dat is niet het API-token van de add-on.', [NO_TOKEN]: 'Vul het API-token van de add-on in, of keur goed in het paneel.' }
  }
}

/** The first language of an Accept-Language header (by its q weights) that the page speaks; English otherwise. */
export function consentLanguage (acceptLanguage: string | undefined): string {
  const wanted = (acceptLanguage ?? '').split(',').map((part, index) => {
    const [tag = '', ...params] = part.trim().split(';')
    const q = Number(params.map(p => p.trim()).find(p => p.startsWith('q='))?.slice(2) ?? '1')
    return { base: tag.trim().toLowerCase().split('-')[0] ?? '', q: Number.isFinite(q) ? q : 0, index }
  }).filter(w => w.base !== '' && w.q > 0).sort((a, b) => b.q - a.q || a.index - b.index)
  return wanted.find(w => w.base in CONSENT_STRINGS)?.base ?? 'en'
}
