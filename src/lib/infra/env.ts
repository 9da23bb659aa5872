/** Runtime configuration, read once from Vite's env (set by `npm start` / the test harness). */
function required(name: string, value: string | undefined): string {
  if (!value)
    throw new Error(`Missing ${name}: start the app with \`npm start\` or set it in .env`);
  return value;
}

// Getters: a page that never talks to Supabase (or its build-time pre-render) does not need them.
export const env = {
  get supabaseUrl(): string {
    return required('VITE_SUPABASE_URL', import.meta.env.VITE_SUPABASE_URL as string | undefined);
  },
  get supabaseAnonKey(): string {
    return required(
      'VITE_SUPABASE_ANON_KEY',
      import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined,
    );
  },
};
