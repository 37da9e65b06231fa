import { Box, Link, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * A lesson body: a small Markdown subset (headings, paragraphs, bullet and numbered lists, bold,
 * italics, inline code, http(s) links) drawn as React elements. It never sets raw HTML, so a body
 * can hold no script and no markup of its own.
 */
export function Markdown({ text }: { text: string }) {
  const blocks: ReactNode[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  let items: { ordered: boolean; lines: string[] } | null = null;
  const flush = () => {
    if (paragraph.length) {
      blocks.push(
        <Typography key={blocks.length} variant="body1" sx={{ mb: 1.5 }}>
          {inline(paragraph.join(' '))}
        </Typography>,
      );
      paragraph = [];
    }
    if (items) {
      const list = items;
      blocks.push(
        <Box key={blocks.length} component={list.ordered ? 'ol' : 'ul'} sx={{ mt: 0, mb: 1.5, pl: 3 }}>
          {list.lines.map((line, index) => (
            <Typography key={index} component="li" variant="body1">
              {inline(line)}
            </Typography>
          ))}
        </Box>,
      );
      items = null;
    }
  };
  for (const line of lines) {
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = heading[1]!.length;
      blocks.push(
        <Typography key={blocks.length} variant={level === 1 ? 'h6' : 'subtitle1'} component={`h${level + 2}` as 'h3'} sx={{ fontWeight: 600, mt: 1, mb: 1 }}>
          {inline(heading[2]!)}
        </Typography>,
      );
    } else if (bullet || numbered) {
      if (paragraph.length) flush();
      const ordered = Boolean(numbered);
      if (items && items.ordered !== ordered) flush();
      items ??= { ordered, lines: [] };
      items.lines.push((bullet ?? numbered)![1]!);
    } else if (line.trim() === '') {
      flush();
    } else {
      if (items) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return <Box data-testid="lesson-body">{blocks}</Box>;
}

const INLINE = /(\*\*[^*]+\*\*|\*[^*]+\*|_[^_]+_|`[^`]+`|\[[^\]]+\]\([^)\s]+\))/g;

function inline(text: string): ReactNode[] {
  return text.split(INLINE).map((part, index) => {
    if (part.startsWith('**') && part.endsWith('**') && part.length > 4) return <strong key={index}>{part.slice(2, -2)}</strong>;
    if (part.startsWith('`') && part.endsWith('`') && part.length > 2) return <code key={index}>{part.slice(1, -1)}</code>;
    if ((part.startsWith('*') && part.endsWith('*')) || (part.startsWith('_') && part.endsWith('_'))) {
      if (part.length > 2) return <em key={index}>{part.slice(1, -1)}</em>;
    }
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(part);
    if (link) {
      const href = link[2]!;
      // Only web addresses become links: a `javascript:` target stays text.
      return /^https?:\/\//i.test(href) ? (
        <Link key={index} href={href} target="_blank" rel="noopener noreferrer">
          {link[1]}
        </Link>
      ) : (
        <span key={index}>{link[1]}</span>
      );
    }
    return part;
  });
}
