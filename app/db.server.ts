// The Prisma client behind Shopify's session storage. Prisma runs without binary engines (engineType "client"), so
// the client needs a driver adapter; the DATABASE_URL scheme picks it, exactly as prisma.config.ts does for migrations.
// A client is generated per provider (`npm run db:generate`): the default one for SQLite in @prisma/client, the
// PostgreSQL one beside it in node_modules/.prisma/client-postgresql (prisma/postgresql/schema.prisma says so).
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaClient } from "@prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { DEFAULT_DATABASE_URL, isPostgresUrl } from "../server/index.ts";

/** Resolved from the working directory (the repository root): the app also runs bundled, from build/server. */
const requireFromRoot = createRequire(path.join(process.cwd(), "package.json"));

function createPrismaClient(url: string = process.env.DATABASE_URL || DEFAULT_DATABASE_URL): PrismaClient {
  if (!isPostgresUrl(url)) return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) });
  // Same models, other provider: the types of the default client describe it.
  const { PrismaClient: PostgresPrismaClient } = requireFromRoot("./node_modules/.prisma/client-postgresql") as {
    PrismaClient: typeof PrismaClient;
  };
  return new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
}

const cache = globalThis as typeof globalThis & { __protectionPrisma?: PrismaClient };

/** One client per process (and per Vite dev server: module reloads reuse it instead of opening new connections). */
export function prisma(): PrismaClient {
  cache.__protectionPrisma ??= createPrismaClient();
  return cache.__protectionPrisma;
}

/** Disconnects the process's client and forgets it: the next prisma() opens one for the DATABASE_URL of then. */
export async function closePrisma(): Promise<void> {
  const client = cache.__protectionPrisma;
  cache.__protectionPrisma = undefined;
  await client?.$disconnect();
}
