/** How the benches call tongate over HTTP and wait for what they expect of it. */

/** A GET of `url` (with `body`, a JSON POST), its answer parsed as JSON. */
export async function json(url: string, body?: unknown): Promise<any> {
  const response = await fetch(
    url,
    body === undefined ? undefined : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  return response.json();
}

/** Resolves once `check` holds (asked every `everyMs`; a throw counts as not yet); throws after `timeoutMs`, naming `what`. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 180_000, everyMs = 250): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
