import { createClient } from '@supabase/supabase-js';
import type { Database } from './database.types';
import { env } from './env';
import { clientLoaded } from './loadSupabase';

/** The one supabase-js client of the SPA (anon key only; RLS decides what it may do). */
export const supabase = createClient<Database>(env.supabaseUrl, env.supabaseAnonKey, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
});

// However this module was loaded, the session tracker (AuthProvider) subscribes at once.
clientLoaded(supabase);
