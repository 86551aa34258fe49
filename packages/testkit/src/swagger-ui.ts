/*
 * What a browser fetches to show a Swagger UI page: the page itself (following redirects),
 * every stylesheet, icon and script it links, and the URLs its swagger-initializer.js
 * resolves (the spec, the OAuth redirect page). A test checks each answered 200, so a
 * page that loads but renders blank (assets under a path that 404s) fails.
 */

/** One answer, as the test's transport gives it: `inject()` or a real `fetch`. */
export interface PageAnswer {
  status: number;
  /** The Location header of a redirect. */
  location?: string;
  body: string;
}

/** GETs a path (with its query) on the server under test, without following redirects. */
export type GetPath = (path: string) => Promise<PageAnswer>;

export interface SwaggerUiFetch {
  /** The path the browser ends up showing, after redirects. */
  page: string;
  /** Every asset and spec URL the page leads to, with the status it answered and its body. */
  fetched: { path: string; status: number; body: string }[];
}

const ORIGIN = "http://browser.test";
const MAX_REDIRECTS = 5;

function pathOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}

/** Browses to `start` as a browser would and fetches everything the Swagger UI page needs. */
export async function fetchSwaggerUi(get: GetPath, start: string): Promise<SwaggerUiFetch> {
  let url = new URL(start, ORIGIN);
  let answer = await get(pathOf(url));
  for (let hops = 0; answer.status >= 300 && answer.status < 400 && answer.location !== undefined; hops++) {
    if (hops === MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects from ${start}`);
    url = new URL(answer.location, url);
    answer = await get(pathOf(url));
  }
  if (answer.status !== 200) throw new Error(`${pathOf(url)} answered ${answer.status}: ${answer.body.slice(0, 200)}`);

  const linked = [...answer.body.matchAll(/<(?:link\b[^>]*\bhref|script\b[^>]*\bsrc)="([^"]+)"/g)].map((m) => new URL(m[1]!, url));
  const fetched: SwaggerUiFetch["fetched"] = [];
  for (const asset of linked) fetched.push({ path: pathOf(asset), ...(await get(pathOf(asset))) });

  // The initializer resolves the spec's URL and the OAuth redirect page's against the page's
  // address with a trailing slash added (the logo's `img.href` is no request).
  const initializer = fetched.find((f) => f.path.endsWith("/swagger-initializer.js"));
  if (!initializer) throw new Error(`${pathOf(url)} links no swagger-initializer.js`);
  const base = new URL(url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`, url);
  for (const m of initializer.body.matchAll(/\b(?:url|oauth2RedirectUrl): resolveUrl\('([^']+)'\)/g)) {
    const target = new URL(m[1]!, base);
    fetched.push({ path: pathOf(target), ...(await get(pathOf(target))) });
  }
  return { page: pathOf(url), fetched };
}
