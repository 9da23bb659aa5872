import { useId, type CSSProperties, type ReactNode } from 'react';

// Mantine's Alert classes (its stylesheet is in app/mantine.css) and the inline variables it sets
// for color="red": tests/unit/error-alert.test.tsx checks that this renders what Mantine's Alert
// renders, so a Mantine release that changes either fails there.
const ALERT_STYLE = {
  '--alert-bg': 'var(--mantine-color-red-light)',
  '--alert-color': 'var(--mantine-color-red-light-color)',
  '--alert-bd': 'calc(0.0625rem * var(--mantine-scale)) solid transparent',
} as CSSProperties;

/**
 * A red alert (role="alert", named by its title and described by its text), drawn as Mantine's
 * `<Alert color="red">` draws it, without that component's code on the home page (its close
 * button and icon, about 1 kB gzip; REQ-WEIGHT-5, decision 0261).
 */
export function ErrorAlert({ title, children }: { title?: string; children: ReactNode }) {
  const id = `alert${useId()}`;
  return (
    <div
      style={ALERT_STYLE}
      className="m_66836ed3 mantine-Alert-root"
      id={id}
      role="alert"
      aria-describedby={`${id}-body`}
      aria-labelledby={title ? `${id}-title` : undefined}
    >
      <div className="m_a5d60502 mantine-Alert-wrapper">
        <div className="m_667c2793 mantine-Alert-body">
          {title && (
            <div className="m_6a03f287 mantine-Alert-title">
              <span id={`${id}-title`} className="m_698f4f23 mantine-Alert-label">
                {title}
              </span>
            </div>
          )}
          <div id={`${id}-body`} className="m_7fa78076 mantine-Alert-message">
            {children}
          </div>
        </div>
      </div>
    </div>
  );
}
