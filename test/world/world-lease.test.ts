import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { WORLD_DB, WORLD_JSON } from "../../src/world/world-builder.js";
import { leaseWorld, WorldStoreCache, worldFileSignature } from "../../src/world/world-lease.js";
import { readWorldManifest } from "../../src/world/world-store.js";
import { buildWorld, randomWorld, workDir } from "./world-fixtures.js";

const work = workDir("relive-world-lease-");
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;
const built = (seed: number) => {
  const dir = join(work, `w${n++}`);
  buildWorld(dir, randomWorld(seed, false));
  return dir;
};

describe("leaseWorld outside a job process", () => {
  it("opens the stores for one lease and closes them on release", () => {
    const dir = built(10);
    const a = leaseWorld(dir);
    const b = leaseWorld(dir);
    expect(b.world).not.toBe(a.world);
    a.release();
    expect(a.world.db.open).toBe(false);
    expect(a.truth.db.open).toBe(false);
    expect(b.world.db.open).toBe(true);
    b.release();
    expect(b.world.db.open).toBe(false);
  });
});

describe("WorldStoreCache", () => {
  it("serves the same stores to the runs of one process while the world's files are unchanged", () => {
    const dir = built(1);
    const cache = new WorldStoreCache();
    const a = cache.lease(dir);
    a.release();
    // a cache hit renews world.json's times (markLastUse): still the same world
    const b = cache.lease(dir);
    expect(b.world).toBe(a.world);
    expect(b.truth).toBe(a.truth);
    b.release();
    b.release(); // idempotent
    expect(cache.openCount).toBe(1);
    cache.close();
    expect(a.world.db.open).toBe(false);
    expect(a.truth.db.open).toBe(false);
    expect(cache.openCount).toBe(0);
    expect(() => cache.lease(dir)).toThrow(/closed/);
  });

  it("never serves a rebuilt world's old stores, and closes them once their last run releases them", () => {
    const dir = built(2);
    const cache = new WorldStoreCache();
    const held = cache.lease(dir);
    const oldHash = held.world.manifest.hash;
    // the world is rebuilt into the same directory (remove, build anew) while a run holds it
    rmSync(dir, { recursive: true, force: true });
    buildWorld(dir, randomWorld(3, false));
    const fresh = cache.lease(dir);
    expect(fresh.world).not.toBe(held.world);
    expect(fresh.world.manifest.hash).toBe(readWorldManifest(dir).hash);
    expect(fresh.world.manifest.hash).not.toBe(oldHash);
    // the old stores stay usable for the run holding them, then close
    expect(held.world.db.open).toBe(true);
    expect(cache.openCount).toBe(2);
    held.release();
    expect(held.world.db.open).toBe(false);
    expect(held.truth.db.open).toBe(false);
    expect(cache.openCount).toBe(1);
    fresh.release();
    cache.close();
    expect(fresh.world.db.open).toBe(false);
    expect(cache.openCount).toBe(0);
  });

  it("opens afresh when world.db is overwritten in place", () => {
    const dir = built(4);
    const other = built(5);
    const cache = new WorldStoreCache();
    const a = cache.lease(dir);
    a.release();
    const before = worldFileSignature(dir);
    copyFileSync(join(other, WORLD_DB), join(dir, WORLD_DB));
    copyFileSync(join(other, WORLD_JSON), join(dir, WORLD_JSON));
    expect(worldFileSignature(dir)).not.toBe(before);
    const b = cache.lease(dir);
    expect(b.world).not.toBe(a.world);
    expect(a.world.db.open).toBe(false); // idle and stale: closed at once
    expect(b.world.manifest.hash).toBe(readWorldManifest(other).hash);
    b.release();
    cache.close();
  });

  it("keeps at most maxIdle worlds no run holds, closing the least recently released", () => {
    const dirs = [built(6), built(7), built(8)];
    const cache = new WorldStoreCache(2);
    const leases = dirs.map((d) => cache.lease(d));
    expect(cache.openCount).toBe(3); // all held
    for (const l of leases) l.release();
    expect(cache.openCount).toBe(2);
    expect(leases[0]!.world.db.open).toBe(false);
    expect(leases[1]!.world.db.open).toBe(true);
    const again = cache.lease(dirs[1]!);
    expect(again.world).toBe(leases[1]!.world);
    cache.close();
    expect(again.world.db.open).toBe(true); // still held by the lease just taken
    again.release();
    expect(again.world.db.open).toBe(false);
    expect(cache.openCount).toBe(0);
  });

  it("a world whose files are gone fails the lease as an uncached open would", () => {
    const dir = built(9);
    const cache = new WorldStoreCache();
    cache.lease(dir).release();
    rmSync(dir, { recursive: true, force: true });
    expect(() => cache.lease(dir)).toThrow(/does not exist/);
    expect(cache.openCount).toBe(0);
    cache.close();
  });
});
