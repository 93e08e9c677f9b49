// Any address no other page has: a plain 404 through the root's error boundary. Without this route Remix's router
// answers it itself, with its developer text, and the page fails to hydrate in the browser (with lazy route
// discovery the client renders nothing where the server rendered the boundary: remix-run/remix#10697).
const notFound = (): never => {
  throw new Response("We could not find that page. Check the address, or start again from the link you were sent.", {
    status: 404,
  });
};

export const loader = notFound;
export const action = notFound;

/** Never rendered (the loader always throws); a page, not a resource route, so that the boundary answers. */
export default function NotFound() {
  return null;
}
