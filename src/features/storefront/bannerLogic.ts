/** The slide after `index`, wrapping from the last slide to the first. */
export function nextSlide(index: number, count: number): number {
  if (count <= 0) return 0;
  return (index + 1) % count;
}

export interface AutoplayInputs {
  /** The visitor's explicit choice with the pause/play control; null = not chosen yet. */
  userChoice: 'playing' | 'paused' | null;
  prefersReducedMotion: boolean;
  hovered: boolean;
  focused: boolean;
}

/** Whether the control shows "playing": by default unless the visitor prefers reduced motion. */
export function isPlaying({ userChoice, prefersReducedMotion }: AutoplayInputs): boolean {
  return userChoice === null ? !prefersReducedMotion : userChoice === 'playing';
}

/** Whether the banner advances by itself right now: playing and not hovered or focused. */
export function shouldAutoAdvance(inputs: AutoplayInputs): boolean {
  return isPlaying(inputs) && !inputs.hovered && !inputs.focused;
}
