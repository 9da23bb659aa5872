import { setEarlyAuth } from '../../lib/infra/loadSupabase';
import { supabase } from '../../lib/infra/supabase';
import { fetchIsAdmin } from '../auth/AuthProvider';
import { prefetchFirstPage } from './products/productQuery';

/**
 * /admin opened with a stored session (main.tsx): the admin check and the Products tab's first
 * page are asked for as soon as this chunk and supabase-js are here, while React is still
 * starting, instead of after the app rendered and restored the session (decision 0180). The
 * database decides both as before: a page asked for by a non-admin is refused and dropped.
 */
export async function startAdminEarly(): Promise<void> {
  const { data } = await supabase.auth.getSession();
  if (!data.session) return;
  const page = prefetchFirstPage();
  // The answer waits for the first page too (both are asked at once and take about as long):
  // the admin area then renders once, with its rows, instead of a spinner and a second render.
  setEarlyAuth(
    data.session,
    fetchIsAdmin(supabase).then((isAdmin) => page.then(() => isAdmin)),
  );
}
