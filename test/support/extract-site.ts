import { html, respond, startFixtureServer, type FixtureServer } from './fixture-server.js';

/**
 * Pages for json_content tests: a product with JSON-LD, a contact page, a long handbook whose
 * relevant section sits in the middle, a JSON document and linked pages for crawls.
 */
export const PRODUCT = `<!doctype html><html lang="en"><head><title>Trail Runner 2 | Ridge Outfitters</title>
<meta name="description" content="A light trail running shoe.">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail Runner 2",
"sku":"TR2-42","brand":{"@type":"Brand","name":"Ridge"},
"offers":{"@type":"Offer","price":"129.95","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}</script>
</head><body><nav><a href="/">Home</a></nav><main><h1>Trail Runner 2</h1>
<p>Our lightest trail shoe, with a 4 mm drop and a grippy outsole.</p>
<p>Price: 129.95 EUR</p><a href="/contact">Contact us</a></main></body></html>`;

export const CONTACT = `<!doctype html><html><head><title>Contact</title></head><body><main>
<h1>Contact Ridge Outfitters</h1><p>Write to <a href="mailto:help@ridge.example">help@ridge.example</a>
or sales@ridge.example.</p><p>Phone: +49 30 1234567</p><a href="/">Back to the shop</a></main></body></html>`;

export const PLANS = `<!doctype html><html><head><title>Plans</title></head><body><main><h1>Plans</h1>
<table><caption>Compare plans</caption><thead><tr><th>Plan</th><th>Price per month</th><th>Seats</th></tr></thead>
<tbody><tr><td>Starter</td><td>$0</td><td>1</td></tr><tr><td>Team</td><td>$12</td><td>10</td></tr>
<tr><td>Enterprise</td><td>Contact us</td><td>Unlimited</td></tr></tbody></table></main></body></html>`;

/** A long page: filler sections around the one a shipping schema asks for. */
export function handbook(): string {
  const filler = (n: number) =>
    `<h2>Chapter ${n}: Trail etiquette ${n}</h2>` +
    Array.from(
      { length: 6 },
      (_, i) =>
        `<p>Paragraph ${n}.${i} about etiquette on narrow trails, passing hikers and keeping dogs on a leash near the river crossing number ${n * 10 + i}.</p>`,
    ).join('');
  const before = Array.from({ length: 12 }, (_, i) => filler(i + 1)).join('');
  const after = Array.from({ length: 12 }, (_, i) => filler(i + 20)).join('');
  return `<!doctype html><html><head><title>Ridge handbook</title></head><body><main><h1>Ridge handbook</h1>
<p>Everything about buying from Ridge Outfitters.</p>${before}
<h2>Shipping costs and delivery time</h2><p>Shipping costs 4.95 EUR per order; delivery time is 2 to 3 working days.</p>
${after}</main></body></html>`;
}

export async function startExtractSite(): Promise<FixtureServer> {
  return startFixtureServer({
    '/': html(PRODUCT),
    '/product': html(PRODUCT),
    '/contact': html(CONTACT),
    '/plans': html(PLANS),
    '/handbook': html(handbook()),
    '/data.json': respond('{"emails":["x@y.example"]}', 'application/json'),
    '/robots.txt': respond('User-agent: *\nAllow: /\n', 'text/plain'),
  });
}
