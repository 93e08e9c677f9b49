// A fake Shopify storefront on loopback: one cart behind the Ajax Cart API (/cart.js, /cart/add.js, /cart/change.js,
// /cart/update.js) in Shopify's documented shapes, optionally under a locale root (/fr/…), plus the pages tests open
// and the theme's cart sections through the Section Rendering API (`?sections=`).
// It records every cart request so tests can count reads and inspect what the widget wrote.
import { listen } from "./stack.ts";

export interface Variant {
  productId: number;
  title: string;
  price: number;
}

interface Line {
  variantId: number;
  quantity: number;
}

/** A line of /cart.js (Shopify's Ajax Cart API; amounts in minor units). */
export interface CartItem {
  id: number;
  key: string;
  variant_id: number;
  product_id: number;
  title: string;
  quantity: number;
  price: number;
  original_price: number;
  final_price: number;
  line_price: number;
  original_line_price: number;
  final_line_price: number;
  properties: Record<string, string>;
  requires_shipping: boolean;
}

/** The cart as /cart.js answers it. */
export interface CartJson {
  token: string;
  note: string | null;
  attributes: Record<string, string>;
  original_total_price: number;
  total_price: number;
  total_discount: number;
  total_weight: number;
  item_count: number;
  items: CartItem[];
  requires_shipping: boolean;
  currency: string;
  items_subtotal_price: number;
  cart_level_discount_applications: unknown[];
}

/** The body of a cart call, in the Ajax Cart API's fields. */
export interface CartCallBody {
  /** /cart/change.js: a line key or a variant id. */
  id?: number | string;
  quantity?: number;
  /** /cart/add.js with several lines. */
  items?: { id: number; quantity?: number }[];
  /** /cart/update.js; an empty value removes one. */
  attributes?: Record<string, string>;
}

export interface CartRequest {
  method: string;
  /** Path without the locale root, e.g. /cart/add.js. */
  path: string;
  /** Path as requested. */
  url: string;
  /** Null on a GET, or when the body was not JSON. */
  body: CartCallBody | null;
}

export interface Storefront {
  origin: string;
  requests: CartRequest[];
  /** The cart as /cart.js shows it. */
  cart(): CartJson;
  /** Replaces the cart's lines and attributes; forgets the recorded requests; `failing`: every cart call answers 500. */
  reset(lines: [variantId: number, quantity: number][], attributes?: Record<string, string>, failing?: boolean): void;
  /** Changes a line behind the page's back (another tab, a cart app on the Storefront API): no Ajax call to see. */
  setQuantity(variantId: number, quantity: number): void;
  /** Serves `html` at a fresh path and returns its URL. */
  page(html: string): string;
  close(): Promise<void>;
}

const json = (body: unknown, status = 200) => Response.json(body, { status });

/** The theme's cart sections, rendered from the cart as Shopify's Section Rendering API answers `?sections=<id>`. */
export type SectionRenderers = Record<string, (cart: CartJson) => string>;

export async function startStorefront(
  catalog: Record<number, Variant>,
  localeRoot = "/",
  sections: SectionRenderers = {},
): Promise<Storefront> {
  let lines: Line[] = [];
  let attributes: Record<string, string> = {};
  let failing = false;
  const requests: CartRequest[] = [];
  const pages = new Map<string, string>();

  const item = (line: Line): CartItem => {
    const variant = catalog[line.variantId];
    const linePrice = variant.price * line.quantity;
    return {
      id: line.variantId,
      key: `${line.variantId}:${line.variantId.toString(16).padStart(32, "0")}`,
      variant_id: line.variantId,
      product_id: variant.productId,
      title: variant.title,
      quantity: line.quantity,
      price: variant.price,
      original_price: variant.price,
      final_price: variant.price,
      line_price: linePrice,
      original_line_price: linePrice,
      final_line_price: linePrice,
      properties: {},
      requires_shipping: true,
    };
  };
  const cart = (): CartJson => {
    const items = lines.map(item);
    const total = items.reduce((sum, line) => sum + line.final_line_price, 0);
    return {
      token: "c1-test",
      note: null,
      attributes: { ...attributes },
      original_total_price: total,
      total_price: total,
      total_discount: 0,
      total_weight: 0,
      item_count: lines.reduce((sum, line) => sum + line.quantity, 0),
      items,
      requires_shipping: items.length > 0,
      currency: "USD",
      items_subtotal_price: total,
      cart_level_discount_applications: [],
    };
  };
  /** A line by its key or its variant id, as /cart/change.js accepts `id`. */
  const lineFor = (id: unknown) => lines.find((line) => item(line).key === id || line.variantId === Number(id));
  const add = (variantId: number, quantity: number) => {
    const existing = lines.find((line) => line.variantId === variantId);
    if (existing) existing.quantity += quantity;
    else lines.push({ variantId, quantity });
    return lines.find((line) => line.variantId === variantId)!;
  };

  const cartApi = async (request: Request, path: string): Promise<Response> => {
    if (request.method === "GET" && path === "/cart.js") return json(cart());
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const body = await request.json();
    if (path === "/cart/add.js") {
      const wanted: { id: number; quantity?: number }[] = body.items ?? [body];
      if (wanted.some((entry) => !catalog[Number(entry.id)]))
        return json({ status: 404, message: "Cart Error", description: "Cannot find variant" }, 404);
      return json({ items: wanted.map((entry) => item(add(Number(entry.id), entry.quantity ?? 1))) });
    }
    if (path === "/cart/change.js") {
      const line = lineFor(body.id);
      if (!line) return json({ status: 400, message: "Cart Error", description: "no valid id or line parameter" }, 400);
      line.quantity = body.quantity;
      lines = lines.filter((entry) => entry.quantity > 0);
      return json(cart());
    }
    if (path === "/cart/update.js") {
      // Shopify merges attributes; an empty value removes one.
      for (const [name, value] of Object.entries<string>(body.attributes ?? {})) {
        if (value === "") delete attributes[name];
        else attributes[name] = value;
      }
      return json(cart());
    }
    return new Response(null, { status: 404 });
  };

  const server = await listen(async (request) => {
    const url = new URL(request.url);
    // GET <any page>?sections=a,b: each section's HTML in its wrapper, null for a section the theme does not have.
    const wanted = url.searchParams.get("sections");
    if (request.method === "GET" && wanted !== null) {
      requests.push({ method: "GET", path: `${url.pathname}?sections=${wanted}`, url: url.pathname, body: null });
      return json(
        Object.fromEntries(
          wanted.split(",").map((id) => {
            const render = sections[id];
            return [
              id,
              render ? `<div id="shopify-section-${id}" class="shopify-section">${render(cart())}</div>` : null,
            ];
          }),
        ),
      );
    }
    const html = pages.get(url.pathname);
    if (html)
      return new Response(html, {
        headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
      });
    if (!url.pathname.startsWith(localeRoot)) return new Response(null, { status: 404 });
    const path = `/${url.pathname.slice(localeRoot.length)}`;
    if (!path.startsWith("/cart")) return new Response(null, { status: 404 });
    const body =
      request.method === "POST"
        ? await request
            .clone()
            .json()
            .catch(() => null)
        : null;
    requests.push({ method: request.method, path, url: url.pathname, body });
    return failing ? json({ status: 500, message: "Internal error" }, 500) : cartApi(request, path);
  });

  return {
    origin: server.origin,
    requests,
    cart,
    reset(initial, initialAttributes = {}, fail = false) {
      lines = initial.map(([variantId, quantity]) => ({ variantId, quantity }));
      attributes = { ...initialAttributes };
      failing = fail;
      requests.length = 0;
    },
    setQuantity(variantId, quantity) {
      lines = [...lines.filter((line) => line.variantId !== variantId), { variantId, quantity }].filter(
        (line) => line.quantity > 0,
      );
    },
    page(html) {
      const path = `/pages/${crypto.randomUUID()}`;
      pages.set(path, html);
      return server.origin + path;
    },
    close: server.close,
  };
}
