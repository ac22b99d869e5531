// The deployment guide's files (docs/deployment.md): the systemd units pass `systemd-analyze
// verify` where systemd is installed, the unit is hardened as the guide says, and the Caddyfile
// asks qrtrack's /tls/ask on the port the guide's settings use (`caddy validate` where Caddy is
// installed; it is not where the suite usually runs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

describe('the deployment files', () => {
  it.skipIf(!has('systemd-analyze'))('pass systemd-analyze verify', () => {
    const units = ['deploy/qrtrack.service', 'deploy/qrtrack-backup.service', 'deploy/qrtrack-backup.timer'];
    const run = spawnSync('systemd-analyze', ['verify', ...units.map((u) => path.join(ROOT, u))], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('run the service as its own user on a read-only system, writing only its data directory', () => {
    const unit = read('deploy/qrtrack.service');
    for (const line of [
      'User=qrtrack',
      'ProtectSystem=strict',
      'ProtectHome=true',
      'NoNewPrivileges=true',
      'StateDirectory=qrtrack',
      'CapabilityBoundingSet=',
    ])
      expect(unit).toContain(`\n${line}\n`);
    expect(unit).toContain('ExecStart=/usr/bin/node /opt/qrtrack/dist/server.js');
  });

  it('point Caddy’s on-demand TLS at /tls/ask on the port of the guide’s settings', () => {
    const caddy = read('deploy/Caddyfile');
    expect(caddy).toMatch(/on_demand_tls \{\s*ask http:\/\/127\.0\.0\.1:3000\/tls\/ask\s*\}/);
    expect(caddy).toContain('reverse_proxy 127.0.0.1:3000');
    const guide = read('docs/deployment.md');
    expect(guide).toContain('PORT=3000');
    expect(guide).toContain('HOST=127.0.0.1');
    for (const file of ['qrtrack.service', 'qrtrack-backup.service', 'qrtrack-backup.timer', 'Caddyfile'])
      expect(guide).toContain(`deploy/${file}`);
  });

  it.skipIf(!has('caddy'))('the Caddyfile passes caddy validate', () => {
    const run = spawnSync('caddy', ['validate', '--adapter', 'caddyfile', '--config', path.join(ROOT, 'deploy/Caddyfile')], {
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
  });
});
