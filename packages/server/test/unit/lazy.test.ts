import { describe, expect, it } from 'vitest';
import { deferred, once } from '../../src/lazy.ts';

describe('loading on first use', () => {
  it('once: runs its maker on the first call only, concurrent callers sharing it', async () => {
    let made = 0;
    const value = once(async () => ++made);
    expect(made).toBe(0);
    expect(await Promise.all([value(), value(), value()])).toEqual([1, 1, 1]);
    expect(await value()).toBe(1);
    expect(made).toBe(1);
  });

  it('deferred: makes nothing until a method is called, then forwards every call to the one it made', async () => {
    interface Store {
      put(key: string, value: number): Promise<void>;
      get(key: string): Promise<number | undefined>;
      owns(key: string): boolean;
    }
    let made = 0;
    const stand = deferred<Store, Pick<Store, 'owns'>>(
      async () => {
        made += 1;
        const values = new Map<string, number>();
        // A method that relies on `this`: it is called on the real object.
        const real: Store & { values: Map<string, number> } = {
          values,
          async put(key, value) {
            this.values.set(key, value);
          },
          async get(key) {
            return values.get(key);
          },
          owns: () => true,
        };
        return real;
      },
      { put: true, get: true },
      { owns: (key) => key.startsWith('k') },
    );
    expect(stand.owns('k1')).toBe(true);
    expect(stand.owns('x')).toBe(false);
    expect(made).toBe(0);
    await Promise.all([stand.put('k1', 1), stand.put('k2', 2)]);
    expect(await stand.get('k2')).toBe(2);
    expect(made).toBe(1);
  });

  it('deferred: a failing method rejects as the real one did; a maker that fails fails every call', async () => {
    const failing = deferred<{ run(): Promise<void> }>(
      async () => ({
        run: async () => {
          throw new RangeError('out of range');
        },
      }),
      { run: true },
    );
    await expect(failing.run()).rejects.toThrow(RangeError);
    const broken = deferred<{ run(): Promise<void> }>(
      async () => {
        throw new Error('module failed to load');
      },
      { run: true },
    );
    await expect(broken.run()).rejects.toThrow('module failed to load');
    await expect(broken.run()).rejects.toThrow('module failed to load');
  });
});
