// A module loader hook (node:module register) that tells the thread that registered it each module URL it loads.
let port;
export function initialize(data) {
  port = data.port;
}
export async function load(url, context, nextLoad) {
  port.postMessage(url);
  return nextLoad(url, context);
}
