import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Port 3000 matches [auth] site_url in supabase/config.toml, so e-mail links land on the dev server.
export default defineConfig({
  plugins: [react()],
  server: { port: 3000, strictPort: true, host: '127.0.0.1' },
  preview: { port: 4173, strictPort: true, host: '127.0.0.1' },
  build: { target: 'es2022', sourcemap: false },
});
