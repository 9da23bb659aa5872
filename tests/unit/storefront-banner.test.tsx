// @vitest-environment jsdom
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Banner } from '../../src/features/storefront/Banner';
import { isPlaying, nextSlide, shouldAutoAdvance } from '../../src/features/storefront/bannerLogic';
import { constants, texts } from '../../src/adminTexts';
import { preferReducedMotion, renderWithProviders } from './render';

const t = texts.storefront.banner;

function activeSlide(): number {
  const slides = screen.getAllByTestId('banner-slide', { hidden: true } as never);
  return slides.findIndex((s) => s.hasAttribute('data-active'));
}

describe('banner logic', () => {
  it('advances and wraps from the last slide to the first', () => {
    expect(nextSlide(0, 3)).toBe(1);
    expect(nextSlide(1, 3)).toBe(2);
    expect(nextSlide(2, 3)).toBe(0);
    expect(nextSlide(0, 0)).toBe(0);
  });

  it('plays by default unless reduced motion is preferred; an explicit choice wins', () => {
    const base = { hovered: false, focused: false };
    expect(isPlaying({ ...base, userChoice: null, prefersReducedMotion: false })).toBe(true);
    expect(isPlaying({ ...base, userChoice: null, prefersReducedMotion: true })).toBe(false);
    expect(isPlaying({ ...base, userChoice: 'playing', prefersReducedMotion: true })).toBe(true);
    expect(isPlaying({ ...base, userChoice: 'paused', prefersReducedMotion: false })).toBe(false);
  });

  it('does not advance while hovered or focused', () => {
    const playing = { userChoice: null, prefersReducedMotion: false } as const;
    expect(shouldAutoAdvance({ ...playing, hovered: false, focused: false })).toBe(true);
    expect(shouldAutoAdvance({ ...playing, hovered: true, focused: false })).toBe(false);
    expect(shouldAutoAdvance({ ...playing, hovered: false, focused: true })).toBe(false);
  });
});

describe('<Banner />', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const tick = (ms: number) =>
    act(() => {
      vi.advanceTimersByTime(ms);
    });

  it('shows three slides and advances every 4 s, wrapping to the first', () => {
    renderWithProviders(<Banner />);
    expect(constants.bannerIntervalMs).toBe(4000);
    expect(screen.getAllByTestId('banner-slide', { hidden: true } as never)).toHaveLength(3);
    expect(activeSlide()).toBe(0);
    tick(3999);
    expect(activeSlide()).toBe(0);
    tick(1);
    expect(activeSlide()).toBe(1);
    tick(4000);
    expect(activeSlide()).toBe(2);
    tick(4000);
    expect(activeSlide()).toBe(0);
  });

  it('jumps to a slide when its dot is clicked and gives it a full interval', () => {
    renderWithProviders(<Banner />);
    tick(3000);
    fireEvent.click(screen.getByRole('button', { name: t.showSlide(3) }));
    expect(activeSlide()).toBe(2);
    expect(screen.getByRole('button', { name: t.showSlide(3) })).toHaveAttribute(
      'aria-current',
      'true',
    );
    expect(screen.getByRole('button', { name: t.showSlide(1) })).toHaveAttribute(
      'aria-current',
      'false',
    );
    tick(3999);
    expect(activeSlide()).toBe(2);
    tick(1);
    expect(activeSlide()).toBe(0);
  });

  it('pauses with the control and resumes with play', () => {
    renderWithProviders(<Banner />);
    fireEvent.click(screen.getByRole('button', { name: t.pause }));
    tick(12_000);
    expect(activeSlide()).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: t.play }));
    tick(4000);
    expect(activeSlide()).toBe(1);
  });

  it('pauses while hovered', () => {
    renderWithProviders(<Banner />);
    const banner = screen.getByTestId('banner');
    fireEvent.mouseEnter(banner);
    tick(10_000);
    expect(activeSlide()).toBe(0);
    fireEvent.mouseLeave(banner);
    tick(4000);
    expect(activeSlide()).toBe(1);
  });

  it('does not advance by itself when reduced motion is preferred', () => {
    preferReducedMotion();
    renderWithProviders(<Banner />);
    tick(20_000);
    expect(activeSlide()).toBe(0);
    // The visitor can still move with the dots and start it explicitly.
    expect(screen.getByRole('button', { name: t.play })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: t.showSlide(2) }));
    expect(activeSlide()).toBe(1);
  });
});
