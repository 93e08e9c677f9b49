import { ATTRIBUTES, attributesOf } from "./config.ts";
import { dispatch } from "./events.ts";
import { refuse } from "./host.ts";
import { mountOffer, REQUOTE_DELAY_MS, type Mount } from "./offer.ts";

/**
 * The <service-widget> class. Its closed shadow root and mount live in a module-level WeakMap, not on the element,
 * so page scripts cannot reach them. One quote per connection; attribute changes re-quote once, debounced. A move
 * (disconnected and connected again in the same task: `placement`, a theme re-rendering its cart) is no new
 * connection. `ready` fires once per element.
 */
export function serviceWidgetClass(scriptUrl: string): CustomElementConstructor {
  const mounts = new WeakMap<HTMLElement, Mount>();
  return class ServiceWidget extends HTMLElement {
    static get observedAttributes() {
      return ATTRIBUTES;
    }

    connectedCallback() {
      let mount = mounts.get(this);
      if (!mount) {
        const root = this.attachShadow({ mode: "closed" });
        mount = mountOffer(root, scriptUrl, (name, detail) => dispatch(this, name, detail));
        mounts.set(this, mount);
        dispatch(this, "ready", {});
      }
      // A zero delay lets a framework finish setting attributes before the one quote of this mount.
      if (mount.idle) mount.update(attributesOf(this), 0);
    }

    disconnectedCallback() {
      const mount = mounts.get(this);
      queueMicrotask(() => this.isConnected || mount?.stop());
    }

    attributeChangedCallback(_name: string, before: string | null, after: string | null) {
      if (before != after && this.isConnected) mounts.get(this)?.update(attributesOf(this), REQUOTE_DELAY_MS);
    }

    /**
     * The order is placed: confirms the ticked offer (mode="order") for the buyer's e-mail (`customerEmail`, else
     * the page's) and resolves with the reference number.
     */
    confirm(options?: { orderId?: string; customerEmail?: string }): Promise<string> {
      return mounts.get(this)?.settle(options?.orderId, options?.customerEmail) || refuse("not_accepted");
    }
  };
}
