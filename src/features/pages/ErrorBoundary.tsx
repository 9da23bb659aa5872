import { Component, type ReactNode } from 'react';
import { ErrorPage } from './ErrorPage';

interface Props {
  /** A new address clears the error, as the data router did on the next navigation. */
  pathname: string;
  children: ReactNode;
}

interface State {
  error: unknown;
  pathname: string;
  failed: boolean;
}

/**
 * Shows the error page in place of the layout when rendering the app fails (for example a lazy
 * page chunk that fails to download after a deploy): the declarative router has no
 * errorElement (decision 0258).
 */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: undefined, pathname: this.props.pathname, failed: false };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.pathname === state.pathname) return null;
    return { pathname: props.pathname, error: undefined, failed: false };
  }

  render() {
    return this.state.failed ? <ErrorPage error={this.state.error} /> : this.props.children;
  }
}
