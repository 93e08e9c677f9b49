// The owners of the storefront config's metafields: the app installation and the shop.
import { adminOperation } from "./graphql.ts";

export interface OwnersResult {
  currentAppInstallation: { id: string };
  shop: { id: string };
}

export const owners = adminOperation<void, OwnersResult>(`query Owners { currentAppInstallation { id } shop { id } }`);
