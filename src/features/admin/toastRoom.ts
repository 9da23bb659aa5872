import { useEffect, useState } from 'react';

/**
 * Room (px) that the shown toasts take at the screen's bottom, kept under the admin page's end so
 * that scrolled to the end the last table row and the paging sit above the toasts, never under
 * them (REQ-PATH-11; decision 0259). Toasts stay at the bottom right (REQ-FIND-8); up to the
 * spec's 20 different ones can stack there.
 */
export function useToastRoom(): number {
  const [room, setRoom] = useState(0);
  useEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      let top = window.innerHeight;
      for (const toast of document.querySelectorAll('.mantine-Notifications-root [role="alert"]'))
        top = Math.min(top, toast.getBoundingClientRect().top);
      // A small gap between the page's end and the topmost toast.
      setRoom(top < window.innerHeight ? Math.ceil(window.innerHeight - top) + 8 : 0);
    };
    const soon = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    // Toasts come and go (the container mounts lazily, AppProviders) and slide in and out.
    const changes = new MutationObserver(soon);
    changes.observe(document.body, { childList: true, subtree: true });
    document.addEventListener('transitionend', soon);
    window.addEventListener('resize', soon);
    soon();
    return () => {
      cancelAnimationFrame(frame);
      changes.disconnect();
      document.removeEventListener('transitionend', soon);
      window.removeEventListener('resize', soon);
    };
  }, []);
  return room;
}
