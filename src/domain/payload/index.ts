// Payload: what a QR item's short link leads to. Assembles it from the typed fields of each
// content kind (product-decisions §4), validates raw payloads, and parses Wi-Fi and vCard
// payloads back for the landing pages. Redirect kinds (url, whatsapp, email) always end up as
// ASCII-only http(s)/mailto links, so the short-link route can put them in `Location` safely.
export { assemblePayload, validatePayload } from './assemble.ts';
export { PAYLOAD_MAX_LENGTH } from './checks.ts';
export {
  CONTENT_TYPES,
  type ContentType,
  foreignFieldWarnings,
  isContentType,
  KIND_OF_FIELD,
  TYPED_FIELDS,
  type TypedFields,
  WIFI_ENCRYPTIONS,
  type WifiEncryption,
} from './fields.ts';
export { normalizeHttpUrl } from './url.ts';
export { escapeVcardText, parseVcardPayload, unescapeVcardText, type VcardFields } from './vcard.ts';
export { parseWifiPayload, type WifiFields } from './wifi.ts';
