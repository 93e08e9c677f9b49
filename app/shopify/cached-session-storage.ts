// Every Shopify webhook loads the shop's offline session (authenticate.webhook does, and the Admin API client for
// the write-back job does again): through Prisma that was a third of the app's CPU per order in bench:shopify. This
// decorator keeps loaded sessions for a few seconds. Writes and deletes through it update the cache at once; another
// app instance's change is seen within ttlMs (a revoked token then fails one Admin call, and the job is retried).
// Hand-written: no session-storage package offers a read cache.
import type { Session } from "@shopify/shopify-api";
import type { SessionStorage } from "@shopify/shopify-app-session-storage";

export class CachedSessionStorage implements SessionStorage {
  readonly #inner: SessionStorage;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #cache = new Map<string, { session: Session; until: number }>();

  constructor(inner: SessionStorage, options: { ttlMs: number; now?: () => number }) {
    this.#inner = inner;
    this.#ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
  }

  async loadSession(id: string): Promise<Session | undefined> {
    const cached = this.#cache.get(id);
    if (cached && cached.until > this.#now()) return cached.session;
    const session = await this.#inner.loadSession(id);
    if (session) this.#cache.set(id, { session, until: this.#now() + this.#ttlMs });
    else this.#cache.delete(id);
    return session;
  }

  async storeSession(session: Session): Promise<boolean> {
    this.#cache.delete(session.id);
    return this.#inner.storeSession(session);
  }

  async deleteSession(id: string): Promise<boolean> {
    this.#cache.delete(id);
    return this.#inner.deleteSession(id);
  }

  async deleteSessions(ids: string[]): Promise<boolean> {
    for (const id of ids) this.#cache.delete(id);
    return this.#inner.deleteSessions(ids);
  }

  findSessionsByShop(shop: string): Promise<Session[]> {
    return this.#inner.findSessionsByShop(shop);
  }
}
