import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type DefaultValues, type FieldValues } from 'react-hook-form';
import type { z } from 'zod';

/** A react-hook-form form whose values the zod `schema` checks on submit. */
export function useSchemaForm<TValues extends FieldValues>(
  schema: z.ZodType<TValues, TValues>,
  defaultValues: DefaultValues<TValues>,
) {
  return useForm<TValues>({ resolver: zodResolver(schema), defaultValues });
}
