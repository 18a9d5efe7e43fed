/** Process entry: `tongate ...` (bin/tongate.js runs the compiled copy; tests run this file through tsx). */
import { main } from './main.js';

main(process.argv).catch((err: unknown) => {
  console.error(`tongate: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
