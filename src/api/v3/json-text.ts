/** JsonText lives in src/api/json-text.ts (v2 sends it too); this name stays for the v3 code that imports it here. */
export { JsonText, jsonObject, answerValue } from '../json-text.js';
