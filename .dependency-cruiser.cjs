// The layers of src/ (docs/design.md, "Layout"), checked on every import by `npm run lint`: no exceptions.
// Type-only imports count: a circle of types still blurs which file is the lower one.

/** No import from `from` to `to` (each a dependency-cruiser condition: paths are regular expressions). */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid(
      'no-circle',
      'No import circle, type-only imports included: one file of each pair is the lower one.',
      { path: '^src/' },
      { circular: true },
    ),
    forbid(
      'util-is-a-leaf',
      'src/util holds helpers every layer may use, so it imports nothing of ours.',
      { path: '^src/util/' },
      { path: '^src/', pathNot: '^src/util/' },
    ),
    forbid(
      'ton-is-pure',
      'src/ton is the pure codecs under every layer: it imports nothing of ours but src/util, whose helpers import ' +
        'nothing (util-is-a-leaf), so no layer above can reach ton through it.',
      { path: '^src/ton/' },
      { path: '^src/', pathNot: '^src/(ton|util)/' },
    ),
    forbid(
      'chain-knows-no-consumer',
      'src/chain serves the index and the APIs; it knows nothing of them, of HTTP, of the access layer or of any other consumer.',
      { path: '^src/chain/' },
      { path: '^src/(index|access|http|api|gateway|upstream|devnet|cli)/' },
    ),
    forbid(
      'access-knows-no-ton',
      'src/access decides on keys and limits (the seed rules), nothing of TON: not our TON code, not TON packages.',
      { path: '^src/access/' },
      { path: ['^src/(ton|chain|index|contracts)/', '(^|/)node_modules/(@ton|@ton-community|ton-lite-client|ton-tl|tonweb|adnl)/'] },
    ),
    forbid(
      'http-is-a-toolkit',
      'src/http is the toolkit the APIs, the upstream forwarder and the devnet controls are built with; the assembly of ' +
        'them all is src/gateway, above them.',
      { path: '^src/http/' },
      { path: '^src/(api|upstream|devnet)/' },
    ),
    forbid(
      'gateway-is-the-top',
      'src/gateway assembles every room; only the start-up (src/cli) opens it, so no room can reach the others through it.',
      { path: '^src/', pathNot: '^src/(gateway|cli)/' },
      { path: '^src/gateway/' },
    ),
    forbid(
      'cli-is-the-entrance',
      'src/cli is the process entrance, above everything: nothing of src/ imports it.',
      { path: '^src/', pathNot: '^src/cli/' },
      { path: '^src/cli/' },
    ),
  ],
  options: {
    // Packages are in the graph (access-knows-no-ton names @ton/*) but not followed into.
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are edges too (they are erased before run time, so the compiled graph would miss them).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
