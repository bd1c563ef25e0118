import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localServer, postLocalAdmin, shown } from '../../src/commands/local-admin.ts';
import { main as signout } from '../../src/commands/signout.ts';
import { main as localUser } from '../../src/commands/local-user.ts';

// What signout --local and local-user talk to: npm start on this machine, and nothing a redirect or a stray URL
// points them at instead. What a server answers reaches the terminal capped and escaped.

let server: Server;
let base: string;
let answer: (path: string) => { status: number; headers?: Record<string, string>; body?: string };
const seen: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url!);
    const { status, headers, body } = answer(req.url!);
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body ?? '');
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

describe("the local server's administration routes", () => {
  it('take a loopback http URL, or the one PORT gives, checked as npm start checks it', () => {
    expect(localServer(undefined, { PORT: '3100' }).href).toBe('http://127.0.0.1:3100/');
    expect(localServer(undefined, { PORT: '' }).href).toBe('http://127.0.0.1:3000/');
    expect(() => localServer(undefined, { PORT: '1@example.invalid' })).toThrow(/PORT must be an integer/);
    for (const url of ['http://localhost:3000', 'http://[::1]:3000', 'http://127.0.0.1:3000/'])
      expect(localServer(url).protocol).toBe('http:');
  });

  it('refuse a URL elsewhere: another host, https, credentials, no port, or none at all', () => {
    expect(() => localServer(undefined, { PORT: '0' })).toThrow(/name the URL npm start printed/);
    for (const url of [
      'http://localhost',
      'http://127.0.0.1:80',
      'https://abc.execute-api.us-east-1.amazonaws.com',
      'http://example.com:3000',
      'https://127.0.0.1:3000',
      'http://user:pw@127.0.0.1:3000',
      'http://127.0.0.1.example.com:3000',
      'not a url',
    ])
      expect(() => localServer(url), url).toThrow(/npm start's on this machine/);
  });

  it('never follow a redirect', async () => {
    answer = () => ({ status: 307, headers: { location: 'http://example.com/_local/x' } });
    await expect(postLocalAdmin(new URL(base), '/_local/users/dev-user/signout')).rejects.toThrow(
      /no answer from/,
    );
  });

  it('show what a server answers as one capped, escaped line', async () => {
    const hostile = `\u001b[2J${'x'.repeat(3000)}\nforged line`;
    expect(shown(hostile).length).toBeLessThanOrEqual(2 + 200 * 6);
    expect(shown(hostile)).not.toContain('forged');
    expect(shown('a\u009b2J\u202eb')).toBe('"a\\u009b2J\\u202eb"');
    expect(shown(hostile)).not.toMatch(/[\u0000-\u001f]/);
    answer = () => ({ status: 500, body: JSON.stringify({ error: hostile }) });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await localUser(['disable', base])).toBe(1);
      const line = errors.mock.calls.flat().join('\n');
      expect(line).not.toMatch(/[\u0000-\u0009\u000b-\u001f]|\nforged/);
      expect(line.length).toBeLessThan(400);
    } finally {
      errors.mockRestore();
    }
  });

  it('refuse a subject a URL would take for a step along the path', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      seen.length = 0;
      expect(await signout(['..', '--local', base])).toBe(1);
      expect(seen).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });

  it('refuse a sign-out time npm start did not make (a day or more off this clock)', async () => {
    answer = () => ({ status: 200, body: JSON.stringify({ signedOutAt: 1 }) });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(await signout(['dev-user', '--local', base])).toBe(1);
      expect(logs).not.toHaveBeenCalled();
      answer = () => ({ status: 200, body: JSON.stringify({ signedOutAt: Math.floor(Date.now() / 1000) }) });
      expect(await signout(['dev-user', '--local', base])).toBe(0);
    } finally {
      errors.mockRestore();
      logs.mockRestore();
    }
  });
});
