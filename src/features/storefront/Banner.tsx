import { ActionIcon } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useEffect, useRef, useState, type FocusEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { slidesFromRow, useStorefrontContent } from '../../lib/infra/storefrontContent';
import { constants, texts } from '../../texts';
import classes from './Banner.module.css';
import { isPlaying, nextSlide, shouldAutoAdvance } from './bannerLogic';

const t = texts.storefront.banner;

function PauseIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">
      <rect x="3" y="2" width="3.5" height="12" rx="1" />
      <rect x="9.5" y="2" width="3.5" height="12" rx="1" />
    </svg>
  );
}

function PlayIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">
      <path d="M4 2.5v11a.5.5 0 0 0 .76.43l9-5.5a.5.5 0 0 0 0-.86l-9-5.5A.5.5 0 0 0 4 2.5z" />
    </svg>
  );
}

/** Keyboard focus pauses the slideshow; a mouse click on a dot should not freeze it. */
function isKeyboardFocus(target: EventTarget): boolean {
  try {
    return target instanceof Element && target.matches(':focus-visible');
  } catch {
    return true;
  }
}

/** A slide with a link is one link (picture and caption); others are just the picture. */
function SlideLink({
  to,
  active,
  children,
}: {
  to?: string;
  active: boolean;
  children: ReactNode;
}) {
  if (!to) return children;
  // A web address the owner set (REQ-PATH-7) is a plain link; a store page goes through the router.
  if (/^https?:/.test(to))
    return (
      <a href={to} rel="noopener" className={classes.link} tabIndex={active ? undefined : -1}>
        {children}
      </a>
    );
  return (
    <Link to={to} className={classes.link} tabIndex={active ? undefined : -1}>
      {children}
    </Link>
  );
}

/**
 * Home banner: three slides, advancing every 4 s and wrapping from the last to the first,
 * with clickable dots. It pauses while hovered or keyboard-focused, has a pause/play control
 * and does not advance by itself for visitors who prefer reduced motion (they may press play).
 * The slides are the owner's (the Storefront tab, docs/decisions/0212); the built-in ones until
 * the stored ones have arrived.
 */
export function Banner() {
  const slides = slidesFromRow(useStorefrontContent(), t.slides);
  const count = slides.length;
  const [index, setIndex] = useState(0);
  const [userChoice, setUserChoice] = useState<'playing' | 'paused' | null>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const prefersReducedMotion = useReducedMotion() ?? false;
  const root = useRef<HTMLElement>(null);

  const inputs = { userChoice, prefersReducedMotion, hovered, focused };
  const playing = isPlaying(inputs);
  const advancing = shouldAutoAdvance(inputs);

  // Restarted on every slide change, so a slide chosen with a dot also gets its full 4 s.
  useEffect(() => {
    if (!advancing) return;
    const timer = window.setTimeout(
      () => setIndex((i) => nextSlide(i, count)),
      constants.bannerIntervalMs,
    );
    return () => window.clearTimeout(timer);
  }, [advancing, index, count]);

  const onFocus = (event: FocusEvent) => setFocused(isKeyboardFocus(event.target));
  const onBlur = (event: FocusEvent) => {
    if (!root.current?.contains(event.relatedTarget as Node | null)) setFocused(false);
  };

  return (
    <section
      ref={root}
      className={classes.root}
      aria-roledescription="carousel"
      aria-label={t.label}
      data-testid="banner"
      data-playing={advancing ? 'true' : 'false'}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      {/* Polite announcements only while the visitor is in control, not on every tick. */}
      <div aria-live={advancing ? 'off' : 'polite'}>
        {slides.map((slide, i) => (
          <div
            key={i}
            className={classes.slide}
            data-active={i === index || undefined}
            role="group"
            aria-roledescription="slide"
            aria-label={t.slideOf(i + 1, count)}
            aria-hidden={i !== index}
            data-testid="banner-slide"
          >
            <SlideLink to={slide.link} active={i === index}>
              <img
                className={classes.image}
                src={slide.image}
                alt={slide.alt}
                width={1200}
                height={400}
                // The first slide is the home page's largest paint: fetch it before the rest.
                fetchPriority={i === 0 ? 'high' : 'low'}
                decoding="async"
              />
              <div className={classes.caption}>
                <p className={classes.heading}>{slide.heading}</p>
                <p className={classes.text}>{slide.text}</p>
              </div>
            </SlideLink>
          </div>
        ))}
      </div>
      <div className={classes.controls}>
        {slides.map((_slide, i) => (
          <button
            key={i}
            type="button"
            className={classes.dot}
            aria-label={t.showSlide(i + 1)}
            aria-current={i === index}
            onClick={() => setIndex(i)}
          />
        ))}
      </div>
      <ActionIcon
        className={classes.toggle}
        variant="filled"
        color="dark"
        radius="xl"
        size="lg"
        aria-label={playing ? t.pause : t.play}
        onClick={() => setUserChoice(playing ? 'paused' : 'playing')}
      >
        {playing ? <PauseIcon /> : <PlayIcon />}
      </ActionIcon>
    </section>
  );
}
