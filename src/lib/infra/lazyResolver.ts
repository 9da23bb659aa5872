import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver whose code (the schema, and zod with it) is loaded when the form is
 * first validated or `preload` is called, not with the page: evaluating zod was one of the
 * longest tasks while a pre-rendered form page started on a phone.
 */
export function lazyResolver<TInput extends FieldValues, TContext, TOutput>(
  load: () => Promise<Resolver<TInput, TContext, TOutput>>,
) {
  let loaded: Promise<Resolver<TInput, TContext, TOutput>> | null = null;
  const preload = () => (loaded ??= load());
  const resolver: Resolver<TInput, TContext, TOutput> = (values, context, options) =>
    preload().then((resolve) => resolve(values, context, options));
  return { resolver, preload };
}
