import { escapeHtml, identifier, pickNoun } from './prose.js';
import type { Random } from './random.js';

/** Languages of the code blocks, as `language-*` classes name them. */
export const CODE_LANGUAGES = ['typescript', 'python', 'go', 'rust', 'bash', 'sql', 'json', 'yaml', 'java'] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

type LineMaker = (rng: Random) => string[];

const SNIPPETS: Record<CodeLanguage, LineMaker> = {
  typescript: (rng) => {
    const fn = identifier(rng);
    const arg = pickNoun(rng);
    return [
      `import { ${identifier(rng)} } from './${pickNoun(rng)}.js';`,
      '',
      `export async function ${fn}(${arg}: ${cap(arg)}, signal: AbortSignal): Promise<number> {`,
      `  const started = performance.now();`,
      `  for (const item of ${arg}.items) {`,
      `    if (signal.aborted) throw new Error('${fn} cancelled after ' + item.id);`,
      `    await item.${rng.pick(['flush', 'commit', 'release'])}({ timeoutMs: ${rng.int(100, 9000)} });`,
      `  }`,
      `  return performance.now() - started; // elapsed ms`,
      `}`,
    ];
  },
  python: (rng) => {
    const fn = snake(identifier(rng));
    return [
      `def ${fn}(${pickNoun(rng)}s, limit=${rng.int(10, 500)}):`,
      `    """Return at most \`limit\` items that carry a ${pickNoun(rng)}."""`,
      `    out = []`,
      `    for item in ${pickNoun(rng)}s:`,
      `        if item.get("${pickNoun(rng)}") is None:`,
      `            continue`,
      `        out.append({"id": item["id"], "score": round(item["score"] * ${rng.int(2, 9)}, 2)})`,
      `        if len(out) >= limit:`,
      `            break`,
      `    return out`,
    ];
  },
  go: (rng) => {
    const fn = cap(identifier(rng));
    return [
      `func ${fn}(ctx context.Context, ${pickNoun(rng)} *${cap(pickNoun(rng))}) error {`,
      `\tctx, cancel := context.WithTimeout(ctx, ${rng.int(1, 30)}*time.Second)`,
      `\tdefer cancel()`,
      `\tif err := ${pickNoun(rng)}.Ping(ctx); err != nil {`,
      `\t\treturn fmt.Errorf("${fn}: %w", err)`,
      `\t}`,
      `\treturn nil`,
      `}`,
    ];
  },
  rust: (rng) => {
    const fn = snake(identifier(rng));
    return [
      `pub fn ${fn}(input: &[u8]) -> Result<Vec<${cap(pickNoun(rng))}>, Error> {`,
      `    let mut out = Vec::with_capacity(${rng.int(4, 64)});`,
      `    for chunk in input.chunks(${rng.int(2, 16) * 512}) {`,
      `        out.push(${cap(pickNoun(rng))}::parse(chunk)?);`,
      `    }`,
      `    Ok(out)`,
      `}`,
    ];
  },
  bash: (rng) => [
    `#!/usr/bin/env bash`,
    `set -euo pipefail`,
    `export ${pickNoun(rng).toUpperCase()}_URL="http://localhost:${rng.int(3000, 9999)}"`,
    `curl -sS -X POST "$${pickNoun(rng).toUpperCase()}_URL/v1/${pickNoun(rng)}s" \\`,
    `  -H "Authorization: Bearer $API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"limit": ${rng.int(1, 100)}, "dry_run": true}' | jq '.data[] | select(.status != "ok")'`,
  ],
  sql: (rng) => {
    const table = `${pickNoun(rng)}s`;
    return [
      `SELECT t.id, t.${pickNoun(rng)}, count(*) AS n`,
      `FROM ${table} AS t`,
      `JOIN ${pickNoun(rng)}s AS u ON u.${pickNoun(rng)}_id = t.id`,
      `WHERE t.created_at > now() - interval '${rng.int(1, 30)} days'`,
      `  AND t.status <> 'archived'`,
      `GROUP BY t.id`,
      `HAVING count(*) > ${rng.int(1, 50)}`,
      `ORDER BY n DESC`,
      `LIMIT ${rng.int(10, 100)};`,
    ];
  },
  json: (rng) => [
    `{`,
    `  "${pickNoun(rng)}": "${identifier(rng)}",`,
    `  "enabled": ${rng.chance(0.5)},`,
    `  "limits": { "${pickNoun(rng)}": ${rng.int(1, 1000)}, "${pickNoun(rng)}": ${rng.int(1, 1000)} },`,
    `  "tags": ["${pickNoun(rng)}", "${pickNoun(rng)}", "${pickNoun(rng)}"]`,
    `}`,
  ],
  yaml: (rng) => [
    `${pickNoun(rng)}:`,
    `  name: ${snake(identifier(rng))}`,
    `  replicas: ${rng.int(1, 12)}`,
    `  resources:`,
    `    limits: { cpu: "${rng.int(1, 4)}", memory: ${rng.int(1, 8) * 256}Mi }`,
    `  env:`,
    `    - name: ${pickNoun(rng).toUpperCase()}_TIMEOUT`,
    `      value: "${rng.int(1, 60)}s"`,
  ],
  java: (rng) => {
    const cls = cap(identifier(rng));
    return [
      `public final class ${cls} implements ${cap(pickNoun(rng))}Handler {`,
      `    private final Map<String, Integer> counts = new HashMap<>();`,
      ``,
      `    @Override`,
      `    public int handle(${cap(pickNoun(rng))} input) {`,
      `        return counts.merge(input.key(), ${rng.int(1, 9)}, Integer::sum);`,
      `    }`,
      `}`,
    ];
  },
};

const KEYWORDS =
  /\b(import|from|export|async|function|const|let|return|for|if|in|await|throw|new|def|continue|break|func|defer|pub|fn|mut|SELECT|FROM|JOIN|WHERE|AND|GROUP|BY|HAVING|ORDER|LIMIT|public|private|final|class|implements|true|false|None|nil)\b/g;

/**
 * A `<pre><code>` block of 1–3 snippets. About a third are syntax-highlighted with spans the way
 * static-site generators emit them (many small inline elements: the expensive case for converters).
 */
export function codeBlock(rng: Random, language: CodeLanguage = rng.pick(CODE_LANGUAGES)): string {
  const lines: string[] = [];
  const snippets = rng.int(1, 3);
  for (let i = 0; i < snippets; i++) {
    if (i > 0) lines.push('');
    lines.push(...SNIPPETS[language](rng));
  }
  const source = lines.join('\n');
  if (rng.chance(0.35)) {
    const body = escapeHtml(source).replace(KEYWORDS, '<span class="hljs-keyword">$1</span>');
    return `<div class="highlight"><pre class="hljs"><code class="language-${language}" data-lang="${language}">${body}</code></pre></div>`;
  }
  return `<pre><code class="language-${language}">${escapeHtml(source)}</code></pre>`;
}

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
