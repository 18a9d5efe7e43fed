// The layers of src/ (docs/design.md, "Layout"), checked on every import by `npm run lint`: no exceptions.
// Type-only imports count: a circle of types still blurs which file is the lower one.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circle',
      comment: 'No import circle, type-only imports included: one file of each pair is the lower one.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'util-is-a-leaf',
      comment: 'src/util holds helpers every layer may use, so it imports nothing of ours.',
      severity: 'error',
      from: { path: '^src/util/' },
      to: { path: '^src/', pathNot: '^src/util/' },
    },
    {
      name: 'ton-is-pure',
      comment:
        'src/ton is the pure codecs under every layer: it imports nothing of ours but src/util, whose helpers import ' +
        'nothing (util-is-a-leaf), so no layer above can reach ton through it.',
      severity: 'error',
      from: { path: '^src/ton/' },
      to: { path: '^src/', pathNot: '^src/(ton|util)/' },
    },
    {
      name: 'chain-knows-no-consumer',
      comment: 'src/chain serves the index and the APIs; it knows nothing of them, of HTTP, of the access layer or of any other consumer.',
      severity: 'error',
      from: { path: '^src/chain/' },
      to: { path: '^src/(index|access|http|api|gateway|upstream|devnet|cli)/' },
    },
    {
      name: 'access-knows-no-ton',
      comment: 'src/access decides on keys and limits (the seed rules), nothing of TON: not our TON code, not TON packages.',
      severity: 'error',
      from: { path: '^src/access/' },
      to: { path: ['^src/(ton|chain|index|contracts)/', '(^|/)node_modules/(@ton|@ton-community|ton-lite-client|ton-tl|tonweb|adnl)/'] },
    },
    {
      name: 'http-is-a-toolkit',
      comment:
        'src/http is the toolkit the APIs, the upstream forwarder and the devnet controls are built with; the ' +
        'assembly of them all is src/gateway, above them.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/(api|upstream|devnet)/' },
    },
    {
      name: 'gateway-is-the-top',
      comment: 'src/gateway assembles every room; only the start-up (src/cli) opens it, so no room can reach the others through it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(gateway|cli)/' },
      to: { path: '^src/gateway/' },
    },
    {
      name: 'cli-is-the-entrance',
      comment: 'src/cli is the process entrance, above everything: nothing of src/ imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
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
