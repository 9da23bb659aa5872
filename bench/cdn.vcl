# Varnish as the stand-in for the host's CDN (bench/cdn.ts, docs/decisions/0257): keeps what
# the origin lets a shared cache keep, for as long as it says, like Netlify's and Cloudflare's.
# bench/cdn.ts writes the origin's port in place of ORIGIN_PORT.
vcl 4.1;

backend origin {
  .host = "127.0.0.1";
  .port = "ORIGIN_PORT";
  .connect_timeout = 5s;
  .first_byte_timeout = 60s;
}

sub vcl_recv {
  # Only GET and HEAD are cached (Netlify: "only GET is cached").
  if (req.method != "GET" && req.method != "HEAD") {
    return (pass);
  }
  # Signed-in traffic is never cached, whatever the answer says.
  if (req.http.Authorization || req.http.Cookie) {
    return (pass);
  }
  # The whole URL, query string included, is the cache key (nothing is stripped or sorted).
  return (hash);
}

sub vcl_backend_response {
  # PostgREST's Content-Range (`0-24/*`) on a 200 is no HTTP byte range: Varnish refuses the
  # whole answer (503) over it. A CDN passes it on or ignores it; the bench drops it.
  if (beresp.status == 200 && beresp.http.Content-Range !~ "^bytes ") {
    unset beresp.http.Content-Range;
  }
  # Varnish reads s-maxage before max-age into beresp.ttl, and stale-while-revalidate into
  # beresp.grace (stale answers served while one request refreshes in the background).
  if (beresp.http.Cache-Control ~ "(?i)(private|no-store|no-cache)" || beresp.http.Set-Cookie) {
    set beresp.uncacheable = true;
    set beresp.ttl = 0s;
    return (deliver);
  }
  if (beresp.http.Cache-Control !~ "(?i)s-maxage") {
    if (bereq.url ~ "^/(api|p)/" || beresp.status != 200) {
      # A dynamic answer without a shared-cache lifetime: not cached (the CDNs' default).
      set beresp.uncacheable = true;
      set beresp.ttl = 0s;
      return (deliver);
    }
    # Built files: the CDN keeps them until the next deploy replaces them.
    set beresp.ttl = 1d;
    set beresp.grace = 0s;
  }
  if (beresp.http.Cache-Control !~ "(?i)stale-while-revalidate") {
    set beresp.grace = 0s;
  }
  return (deliver);
}

sub vcl_deliver {
  # What a CDN's Cache-Status says: a hit (also a stale one in grace) or a miss/pass.
  if (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
}
