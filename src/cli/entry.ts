/** Process entry: `tongate ...` (bin/tongate.js runs the compiled copy; tests run this file through tsx). */
// Cells hashed by node:crypto in this thread (see native-cell-hash.ts).
import '../ton/native-cell-hash.js';
import { main } from './main.js';

main(process.argv).catch((err: unknown) => {
  console.error(`tongate: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
