// The session read cache: a loaded session is reused for ttlMs, every write or delete through it is seen at once,
// and a session removed elsewhere is gone after ttlMs. The inner storage is a counting in-memory one.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { Session } from "@shopify/shopify-api";
import type { SessionStorage } from "@shopify/shopify-app-session-storage";
import { CachedSessionStorage } from "../../app/shopify/cached-session-storage.ts";

function memoryStorage() {
  const sessions = new Map<string, Session>();
  let loads = 0;
  const storage: SessionStorage = {
    storeSession: async (session) => (sessions.set(session.id, session), true),
    loadSession: async (id) => (loads++, sessions.get(id)),
    deleteSession: async (id) => sessions.delete(id),
    deleteSessions: async (ids) => (ids.forEach((id) => sessions.delete(id)), true),
    findSessionsByShop: async (shop) => [...sessions.values()].filter((session) => session.shop === shop),
  };
  return { storage, sessions, loads: () => loads };
}

const session = (token: string) =>
  new Session({
    id: "offline_s.myshopify.com",
    shop: "s.myshopify.com",
    state: "",
    isOnline: false,
    accessToken: token,
  });

describe("CachedSessionStorage", () => {
  it("reuses a loaded session within the TTL, reads again after it", async () => {
    const inner = memoryStorage();
    let now = 1_000;
    const cached = new CachedSessionStorage(inner.storage, { ttlMs: 5_000, now: () => now });
    await inner.storage.storeSession(session("a"));
    assert.equal((await cached.loadSession("offline_s.myshopify.com"))?.accessToken, "a");
    assert.equal((await cached.loadSession("offline_s.myshopify.com"))?.accessToken, "a");
    assert.equal(inner.loads(), 1);
    inner.sessions.delete("offline_s.myshopify.com"); // another app instance deleted it
    now += 5_001;
    assert.equal(await cached.loadSession("offline_s.myshopify.com"), undefined);
    assert.equal(inner.loads(), 2);
  });

  it("sees its own writes and deletes at once", async () => {
    const inner = memoryStorage();
    const cached = new CachedSessionStorage(inner.storage, { ttlMs: 60_000 });
    await cached.storeSession(session("a"));
    await cached.loadSession("offline_s.myshopify.com");
    await cached.storeSession(session("b"));
    assert.equal((await cached.loadSession("offline_s.myshopify.com"))?.accessToken, "b");
    await cached.deleteSessions(["offline_s.myshopify.com"]);
    assert.equal(await cached.loadSession("offline_s.myshopify.com"), undefined);
    await cached.storeSession(session("c"));
    await cached.loadSession("offline_s.myshopify.com");
    await cached.deleteSession("offline_s.myshopify.com");
    assert.equal(await cached.loadSession("offline_s.myshopify.com"), undefined);
  });

  it("does not remember a miss: a session stored elsewhere is found on the next load", async () => {
    const inner = memoryStorage();
    const cached = new CachedSessionStorage(inner.storage, { ttlMs: 60_000 });
    assert.equal(await cached.loadSession("offline_s.myshopify.com"), undefined);
    await inner.storage.storeSession(session("a"));
    assert.equal((await cached.loadSession("offline_s.myshopify.com"))?.accessToken, "a");
  });
});
