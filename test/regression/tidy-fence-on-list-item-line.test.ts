import { expect, it } from 'vitest';
import { tidyMarkdown } from '../../src/pipeline/markdown/tidy.js';

// Broke: a code block opening on a list item's line ("3. ```sh") was not seen as a fence, so its
// indented closing fence was taken for an opening one and nothing after it was tidied (trailing
// spaces and runs of blank lines stayed to the end of the page).
it('tidies what follows a code block that opens on a list item or in a quote', () => {
  const markdown = '3. ```sh\n   npm  \n   ```\n\ntext  \n\n\n\nmore\n\n> ```\n> x  \n> ```\n\nend  ';
  expect(tidyMarkdown(markdown)).toBe('3. ```sh\n   npm  \n   ```\n\ntext\n\nmore\n\n> ```\n> x  \n> ```\n\nend');
});
