/**
 * YAML, loaded on first use: most commands never read a YAML file (no --config, no --genesis), and importing the
 * parser is a noticeable part of a short command's start. `createRequire` keeps `loadConfig` synchronous (the
 * package's Node build is CommonJS).
 */
import { createRequire } from 'node:module';

type YamlModule = typeof import('yaml');
let yaml: YamlModule | undefined;

export function parseYaml(text: string): unknown {
  yaml ??= createRequire(import.meta.url)('yaml') as YamlModule;
  return yaml.parse(text);
}
