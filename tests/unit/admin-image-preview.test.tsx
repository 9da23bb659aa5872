// @vitest-environment jsdom
import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ImagePreview } from '../../src/features/admin/products/ImagePreview';
import { texts } from '../../src/adminTexts';
import { renderWithProviders } from './render';

/** The preview with a button that types another link, as the Image link field does. */
function Form({ first, next }: { first: string; next: string }) {
  const [src, setSrc] = useState(first);
  return (
    <>
      <button onClick={() => setSrc(next)}>next</button>
      <ImagePreview src={src} />
    </>
  );
}

describe('<ImagePreview /> (REQ-IMG-4)', () => {
  it('replaces a link that does not load with a warning, and a new link starts over', () => {
    renderWithProviders(
      <Form first="https://example.com/gone.png" next="/products/match-football.svg" />,
    );
    fireEvent.error(screen.getByRole('img', { name: texts.productForm.imagePreview }));
    expect(screen.getByText(texts.productImages.linkBroken)).toBeInTheDocument();
    expect(screen.queryByRole('img')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'next' }));
    expect(screen.queryByText(texts.productImages.linkBroken)).toBeNull();
    expect(screen.getByRole('img', { name: texts.productForm.imagePreview })).toHaveAttribute(
      'src',
      '/products/match-football.svg',
    );
  });
});
