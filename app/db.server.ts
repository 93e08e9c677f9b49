// The Prisma client behind Shopify's session storage. Prisma runs without binary engines (engineType "client"), so
// the client needs a driver adapter; the DATABASE_URL scheme picks it, exactly as prisma.config.ts does for migrations.
import { PrismaClient } from "@prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { DEFAULT_DATABASE_URL, isPostgresUrl } from "../server/store/open.ts";

export function createPrismaClient(url: string = process.env.DATABASE_URL || DEFAULT_DATABASE_URL): PrismaClient {
  const adapter = isPostgresUrl(url) ? new PrismaPg({ connectionString: url }) : new PrismaBetterSQLite3({ url });
  return new PrismaClient({ adapter });
}

const cache = globalThis as typeof globalThis & { __protectionPrisma?: PrismaClient };

/** One client per process (and per Vite dev server: module reloads reuse it instead of opening new connections). */
export function prisma(): PrismaClient {
  cache.__protectionPrisma ??= createPrismaClient();
  return cache.__protectionPrisma;
}
