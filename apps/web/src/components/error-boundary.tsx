import { Component, type ErrorInfo, type ReactNode } from 'react';
import { isApiError } from '../lib/http-client';
import { ErrorPanel } from './error-panel';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** Replaces the default panel; receives the error and a reset function. */
  fallback?: (error: Error, reset: () => void) => ReactNode;
  onReset?: () => void;
}

interface ErrorBoundaryState {
  error: Error | null;
}

/** spec/01 §2 boundary variant of the error panel: the message and code, with Try Again. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Render error caught by boundary', error, info.componentStack);
  }

  reset = (): void => {
    this.props.onReset?.();
    this.setState({ error: null });
  };

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (this.props.fallback) return this.props.fallback(error, this.reset);
    return (
      <ErrorPanel
        message={error.message || undefined}
        code={isApiError(error) ? error.code : undefined}
        onRetry={this.reset}
      />
    );
  }
}
