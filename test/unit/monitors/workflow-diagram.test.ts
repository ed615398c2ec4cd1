import { describe, expect, it } from 'vitest';
import { resolveDetectionOptions } from '../../../src/domain/monitors/detection/index.js';
import { describeTarget, mermaidLabel, monitorMermaidDiagram } from '../../../src/domain/monitors/planning/index.js';

/** Every line is a flowchart header, a node, an edge or a subgraph line, and every label is quoted. */
const LINE =
  /^(?:flowchart TD|\s+subgraph sources\["[^"]*"\]|\s+end|\s+\w+(?:\(\[|\[\/|\[|\{)"[^"]*"(?:\]\)|\/\]|\]|\})|\s+\w+ (?:-- \w+ )?--> \w+)$/;

describe('monitorMermaidDiagram', () => {
  it('draws a URL monitor from schedule to notification', () => {
    expect(
      monitorMermaidDiagram({
        tracked: { type: 'urls', urls: ['https://example.com/pricing'], web_query: null },
        frequency: 'every hour',
        notification: { events: ['changed'], channels: [{ target: 'https://hooks.example.com/x' }] },
      }),
    ).toBe(
      [
        'flowchart TD',
        '  schedule(["Every hour (UTC)"])',
        '  subgraph sources["Tracked sources"]',
        '    source1["https://example.com/pricing"]',
        '  end',
        '  schedule --> sources',
        '  fetch["Fetch each page (conditional GET: ETag, Last-Modified)"]',
        '  normalise["Normalise text and filter noise"]',
        '  sources --> fetch',
        '  fetch --> normalise',
        '  diff{"Diff with the last snapshot: lines, words, price and stock"}',
        '  normalise --> diff',
        '  unchanged(["No change: keep the baseline"])',
        '  diff -- unchanged --> unchanged',
        '  event["Record the event: summary and hosted unified diff"]',
        '  diff -- changed --> event',
        '  channel1[/"Webhook https://hooks.example.com (changed)"/]',
        '  event --> channel1',
        '',
      ].join('\n'),
    );
  });

  it('adds rules, extraction, search and every channel, and stays well-formed', () => {
    const diagram = monitorMermaidDiagram({
      tracked: {
        type: 'both',
        urls: Array.from({ length: 7 }, (_, i) => `https://acme.io/${i}`),
        web_query: 'acme news',
      },
      frequency: null,
      detection: resolveDetectionOptions({
        include_selectors: ['main'],
        ignore_text: ['a', 'b'],
        trigger_text: ['x'],
        text_must_not_be_present: ['Sold out'],
      }),
      output_schema: { type: 'object' },
      notification: {
        events: ['changed', 'run_failed'],
        channels: [
          { target: 'mailto:ops@example.com' },
          { target: 'https://hooks.slack.com/services/T0/B0/XYZ', events: ['changed'] },
        ],
      },
      webhook: { url: 'https://hooks.example.com/monitor?token=abc' },
    });
    for (const line of diagram.trimEnd().split('\n')) expect(line).toMatch(LINE);
    expect(diagram).toContain('schedule(["On demand"])');
    expect(diagram).toContain('source6["… and 2 more URLs"]');
    expect(diagram).toContain('source7["Web search: acme news"]');
    expect(diagram).toContain('rules{"Rules<br/>trigger text present (1 rule)<br/>blocking text absent (1 rule)"}');
    expect(diagram).toContain('only main<br/>ignoring lines: 2 rules"]');
    expect(diagram).toContain('diff -- changed --> extract');
    expect(diagram).toContain('channel1[/"Email ops@example.com (changed, run_failed)"/]');
    expect(diagram).toContain('channel2[/"Slack (changed)"/]');
    expect(diagram).toContain('channel3[/"Webhook https://hooks.example.com"/]');
    expect(diagram).not.toMatch(/XYZ|token=abc/);
  });

  it('escapes labels so no input leaves its node', () => {
    const diagram = monitorMermaidDiagram({
      tracked: {
        type: 'web_query',
        urls: [],
        web_query: 'a"] --> evil["x` <img src=x onerror=alert(1)> #1 & co\nnext',
      },
      detection: resolveDetectionOptions({ ignore_selectors: ['a[href^="x"] > b'] }),
    });
    for (const line of diagram.trimEnd().split('\n')) expect(line).toMatch(LINE);
    expect(diagram).toContain(
      'source1["Web search: a#quot;] --#62; evil[#quot;x#96; #60;img src=x onerror=alert(1)#62; #35;1 #38; co next"]',
    );
    expect(diagram).toContain('without a[href^=#quot;x#quot;] #62; b');
  });
});

describe('mermaidLabel', () => {
  it('cuts long lines and joins lines with <br/>', () => {
    expect(mermaidLabel('x'.repeat(100))).toBe(`${'x'.repeat(79)}…`);
    expect(mermaidLabel(['a', 'b<c'])).toBe('a<br/>b#60;c');
  });
});

describe('describeTarget', () => {
  it.each([
    ['mailto:ops@example.com', 'Email ops@example.com'],
    ['ops@example.com', 'Email ops@example.com'],
    ['https://hooks.slack.com/services/T0/B0/secret', 'Slack'],
    ['https://hooks.example.com/path/secret?x=1', 'Webhook https://hooks.example.com'],
    ['ftp://files.example.com', 'Channel'],
    ['something', 'Channel'],
  ])('%s → %s', (target, expected) => expect(describeTarget(target)).toBe(expected));
});
