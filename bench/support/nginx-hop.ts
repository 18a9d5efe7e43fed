/**
 * bench:upstream's C reference hop: Debian's nginx as a reverse proxy (`proxy_pass` to an upstream block
 * with keep-alive connections), on loopback, from a config generated in a temp dir. One process
 * (`master_process off`), so its CPU time per request reads like the Node fronts' (one process each).
 * When nginx is not installed the hop is absent and the bench prints why.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NginxHop {
  pid: number;
  stop(): void;
}

/** The nginx binary, or the reason there is none. */
function findNginx(): { path: string } | { missing: string } {
  for (const path of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx']) {
    try {
      execFileSync(path, ['-v'], { stdio: 'ignore' });
      return { path };
    } catch {
      // not there
    }
  }
  return { missing: 'nginx is not installed (Debian: apt-get install -y nginx)' };
}

/** nginx on 127.0.0.1:`port` forwarding everything to 127.0.0.1:`upstreamPort` (Host set to the upstream's own). */
export async function startNginxHop(port: number, upstreamPort: number): Promise<NginxHop | { missing: string }> {
  const found = findNginx();
  if ('missing' in found) return found;
  const dir = mkdtempSync(join(tmpdir(), 'tongate-bench-nginx-'));
  const config = `
daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  # Keep-alive connections as long as the load runs (nginx closes one after 1,000 requests by default, which the
  # load generator counts as an error), to the client and to the upstream alike.
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream api { server 127.0.0.1:${upstreamPort}; keepalive 32; keepalive_requests 1000000; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://api;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host 127.0.0.1:${upstreamPort};
    }
  }
}
`;
  writeFileSync(join(dir, 'nginx.conf'), config);
  const child: ChildProcess = spawn(found.path, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  // Listening once a connection is accepted (nginx prints nothing when it starts well).
  const deadline = Date.now() + 5000;
  for (;;) {
    if (child.exitCode !== null) return { missing: `nginx exited (${child.exitCode}): ${stderr.trim()}` };
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return { pid: child.pid!, stop };
    } catch {
      if (Date.now() > deadline) {
        stop();
        return { missing: `nginx did not listen within 5 s: ${stderr.trim()}` };
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
