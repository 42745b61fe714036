import { MantineProvider } from '@mantine/core';
import { render as renderBare, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { LinkedText, splitOnLinks } from './linked-text';

const render = (ui: ReactNode) => renderBare(<MantineProvider env="test">{ui}</MantineProvider>);

describe('LinkedText', () => {
  it('makes each http(s) address a link that opens apart, without the sentence’s punctuation', () => {
    const { container } = render(
      <LinkedText>
        {'See https://example.com/rules?a=1&b=2. Or (http://old.example.org/x), thanks'}
      </LinkedText>,
    );
    const links = screen.getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      'https://example.com/rules?a=1&b=2',
      'http://old.example.org/x',
    ]);
    for (const link of links) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    }
    expect(container).toHaveTextContent(
      'See https://example.com/rules?a=1&b=2. Or (http://old.example.org/x), thanks',
    );
  });

  it('keeps markup and other schemes as text: nothing is injected, nothing but http(s) is linked', () => {
    const { container } = render(
      <LinkedText>
        {'<img src=x onerror=alert(1)> javascript:alert(1) https://ok.example/"><b>x</b>'}
      </LinkedText>,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    const links = screen.getAllByRole('link');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', 'https://ok.example/');
    expect(container).toHaveTextContent('<img src=x onerror=alert(1)> javascript:alert(1)');
  });

  it('splits text into plain parts and links', () => {
    expect(splitOnLinks('no links here')).toEqual([{ text: 'no links here' }]);
    expect(splitOnLinks('go to https://a.example now')).toEqual([
      { text: 'go to ' },
      { text: 'https://a.example', href: 'https://a.example' },
      { text: ' now' },
    ]);
  });
});
