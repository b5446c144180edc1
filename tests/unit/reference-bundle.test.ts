import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundleName, referenceBundle } from '../../fixtures/run/reference-bundle.ts';
import { failureLine, ReferenceStartError, startReference, startReferenceFrom } from '../../fixtures/run/reference-process.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository, so that the inputs' paths are relative to it like the reference's own
// (node_modules/.cache/ does not exist yet in a fresh clone).
mkdirSync(join(REPO_ROOT, 'node_modules/.cache/'), { recursive: true });
const scratch = mkdtempSync(join(REPO_ROOT, 'node_modules/.cache/', 'bundle-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('reference bundle', () => {
  it('is built once from the sources, listed with them, and found again while they are unchanged', async () => {
    const dir = join(scratch, 'cache');
    const first = await referenceBundle(dir);
    assert.ok(first !== undefined, 'a bundle was built');
    const { inputs } = JSON.parse(readFileSync(join(dir, 'inputs.json'), 'utf8')) as { inputs: string[] };
    assert.ok(inputs.includes('reference/server.ts') && inputs.includes('reference/store.ts'), `inputs: ${inputs.join(', ')}`);
    assert.ok(
      inputs.every((input) => input.startsWith('reference/')),
      'packages stay imports, not inputs',
    );
    assert.equal(await referenceBundle(dir), first);
    // Each module keeps its own location: the store finds the committed seed.
    assert.match(readFileSync(first, 'utf8'), /new URL\("\.\/seed\/seed\.json", "file:\/\/[^"]*\/reference\/store\.ts"\)/);
  });

  it('removes, when it builds, bundles of earlier sources and files of killed builds once they are ten minutes old', async () => {
    const dir = join(scratch, 'stale');
    mkdirSync(dir, { recursive: true });
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    for (const name of ['server-0123456789abcdef0123456789abcdef.mjs', 'building-1-abcd.mjs']) {
      writeFileSync(join(dir, name), '');
      utimesSync(join(dir, name), hourAgo, hourAgo);
    }
    writeFileSync(join(dir, 'server-fedcba9876543210fedcba9876543210.mjs'), '');
    const built = await referenceBundle(dir);
    assert.ok(built !== undefined && existsSync(built));
    assert.ok(!existsSync(join(dir, 'server-0123456789abcdef0123456789abcdef.mjs')), 'an old bundle is removed');
    assert.ok(!existsSync(join(dir, 'building-1-abcd.mjs')), 'an old partial file is removed');
    assert.ok(existsSync(join(dir, 'server-fedcba9876543210fedcba9876543210.mjs')), 'a recent one may be starting: kept');
  });

  it('is named by the contents of its inputs, so that an edit makes another bundle', () => {
    mkdirSync(join(scratch, 'inputs'), { recursive: true });
    const input = join(scratch, 'inputs', 'module.ts');
    const relativeInput = relative(REPO_ROOT, input);
    writeFileSync(input, 'export const a = 1;\n');
    const before = bundleName([relativeInput], '0.0.0');
    assert.equal(bundleName([relativeInput], '0.0.0'), before);
    writeFileSync(input, 'export const a = 2;\n');
    assert.notEqual(bundleName([relativeInput], '0.0.0'), before);
    assert.notEqual(bundleName([relativeInput], '0.0.1'), bundleName([relativeInput], '0.0.0'), 'another esbuild, another bundle');
    // A build names its bundle by the bytes it compiled, whatever the file holds by then.
    assert.equal(
      bundleName([relativeInput], '0.0.0', () => 'export const a = 1;\n'),
      before,
    );
    rmSync(input);
    assert.throws(() => bundleName([relativeInput], '0.0.0'), /ENOENT/);
  });

  it('starts a reference that answers like the one run from its sources', async () => {
    const reference = await startReference();
    try {
      const command = readFileSync(`/proc/${reference.pid}/cmdline`, 'utf8').split('\0');
      assert.ok(
        command.some((arg) => /reference\/[0-9a-f]{12}\/server-[0-9a-f]{32}\.mjs$/.test(arg)),
        `started from the bundle: ${command.join(' ')}`,
      );
      const response = await fetch(`${reference.baseUrl}/groups`);
      assert.equal(response.status, 401, 'GET /groups without a token');
    } finally {
      await reference.stop();
    }
  });
  it('starts from the sources when its bundle exits before listening, and removes that bundle', async () => {
    const broken = join(scratch, 'server-broken.mjs');
    writeFileSync(broken, "throw new Error('this bundle is broken');\n");
    const listeners = (): number[] => (['exit', 'SIGTERM', 'SIGHUP'] as const).map((event) => process.listenerCount(event));
    const before = listeners();
    const said: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => {
      said.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    let reference;
    try {
      reference = await startReferenceFrom(broken);
    } finally {
      process.stderr.write = write;
    }
    try {
      assert.ok(reference.running());
      assert.equal((await fetch(`${reference.baseUrl}/groups`)).status, 401, 'GET /groups without a token');
      assert.ok(!existsSync(broken), 'the bundle that did not start is removed');
      assert.match(
        said.join(''),
        /^reference: its bundle \S*server-broken\.mjs exited \(code 1\) before listening, saying: Error: this bundle is broken; it was started from its sources through tsx instead, and the bundle was removed/,
      );
    } finally {
      await reference.stop();
    }
    assert.deepEqual(listeners(), before, 'no exit or signal listener of either attempt is left');
  });

  it("keeps its bundle and throws the sources' own error, the bundle's as its cause, when the sources do not start either", async () => {
    const bundle = await referenceBundle(join(scratch, 'kept'));
    assert.ok(bundle !== undefined);
    await assert.rejects(startReferenceFrom(bundle, { extraArgs: ['--fault', 'no-such-fault'] }), (error: Error) => {
      assert.match(
        error.message,
        /^The reference \(node --import tsx\/esm reference\/server\.ts .*--fault no-such-fault\) exited \(code 2, signal null\) before listening/,
      );
      assert.match(error.message, /unknown fault "no-such-fault"/);
      assert.ok(error.cause instanceof ReferenceStartError && error.cause.message.includes(bundle), "the bundle's own failure is the cause");
      return true;
    });
    assert.ok(existsSync(bundle), 'a bundle that fails as its sources do is not at fault: kept');
  });

  it('does not retry, nor remove, a bundle that was killed', async () => {
    const killed = join(scratch, 'server-killed.mjs');
    writeFileSync(killed, "process.kill(process.pid, 'SIGKILL');\n");
    await assert.rejects(startReferenceFrom(killed), (error: Error) => {
      assert.ok(error instanceof ReferenceStartError && error.exit?.signal === 'SIGKILL', error.message);
      assert.match(error.message, /server-killed\.mjs/);
      return true;
    });
    assert.ok(existsSync(killed));
  });

  it('names the line of a failed start that says what went wrong', () => {
    assert.equal(
      failureLine([
        'file:///x/server.mjs:3',
        '  throw new Error("boom");',
        '  ^',
        '',
        'Error: boom',
        '    at file:///x/server.mjs:3:9',
        '',
        'Node.js v20.20.2',
      ]),
      'Error: boom',
    );
    assert.equal(failureLine(['reference: --fault: unknown fault "x"']), 'reference: --fault: unknown fault "x"');
    assert.equal(failureLine([]), undefined);
  });
});
