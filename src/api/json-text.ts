/**
 * An answer already written as JSON text. The index stores documents as JSON text; pages of
 * transactions and messages are assembled from them as text, so a request does not parse every
 * document only to serialize it again (about half a millisecond and most of the garbage of a page of
 * ten transactions). Answers built once a block (src/api/per-block) are kept as it. v3's routes.ts sends it as is,
 * as application/json; v2's routes.ts writes it into the envelope as is.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** `{"key1":<text1>,"key2":<text2>}` from already serialized values, in the given order. */
export function jsonObject(entries: [string, string][]): JsonText {
  return new JsonText(`{${entries.map(([key, text]) => `${JSON.stringify(key)}:${text}`).join(',')}}`);
}

/** The value an answer stands for: a JsonText parsed back (for code that reads into an answer), anything else as is. */
export function answerValue(answer: unknown): unknown {
  return answer instanceof JsonText ? JSON.parse(answer.text) : answer;
}
