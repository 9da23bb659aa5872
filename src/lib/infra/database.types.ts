export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[];

export type Database = {
  public: {
    Tables: {
      activity_log: {
        Row: {
          actor: string | null;
          actor_email: string | null;
          after: Json | null;
          before: Json | null;
          created_at: string;
          id: number;
          kind: string;
          product_id: string | null;
          subject: string;
        };
        ComputedFields: never;
        Insert: {
          actor?: string | null;
          actor_email?: string | null;
          after?: Json | null;
          before?: Json | null;
          created_at?: string;
          id?: never;
          kind: string;
          product_id?: string | null;
          subject: string;
        };
        Update: {
          actor?: string | null;
          actor_email?: string | null;
          after?: Json | null;
          before?: Json | null;
          created_at?: string;
          id?: never;
          kind?: string;
          product_id?: string | null;
          subject?: string;
        };
        Relationships: [];
      };
      admin_invites: {
        Row: {
          accepted_at: string | null;
          created_at: string;
          email: string;
          invited_by: string | null;
          last_sent_at: string | null;
          user_id: string | null;
        };
        ComputedFields: never;
        Insert: {
          accepted_at?: string | null;
          created_at?: string;
          email: string;
          invited_by?: string | null;
          last_sent_at?: string | null;
          user_id?: string | null;
        };
        Update: {
          accepted_at?: string | null;
          created_at?: string;
          email?: string;
          invited_by?: string | null;
          last_sent_at?: string | null;
          user_id?: string | null;
        };
        Relationships: [];
      };
      admins: {
        Row: {
          created_at: string;
          email: string;
          user_id: string;
        };
        ComputedFields: never;
        Insert: {
          created_at?: string;
          email: string;
          user_id: string;
        };
        Update: {
          created_at?: string;
          email?: string;
          user_id?: string;
        };
        Relationships: [];
      };
      buy_now_clicks_by_offer: {
        Row: {
          clicks: number;
          day: string;
          offer_id: string;
        };
        ComputedFields: never;
        Insert: {
          clicks: number;
          day: string;
          offer_id: string;
        };
        Update: {
          clicks?: number;
          day?: string;
          offer_id?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'buy_now_clicks_by_offer_offer_id_fkey';
            columns: ['offer_id'];
            isOneToOne: false;
            referencedRelation: 'offers';
            referencedColumns: ['id'];
          },
        ];
      };
      buy_now_clicks_by_page: {
        Row: {
          category: string;
          clicks: number;
          day: string;
          page: string;
        };
        ComputedFields: never;
        Insert: {
          category: string;
          clicks: number;
          day: string;
          page: string;
        };
        Update: {
          category?: string;
          clicks?: number;
          day?: string;
          page?: string;
        };
        Relationships: [];
      };
      buy_now_clicks_by_product: {
        Row: {
          clicks: number;
          day: string;
          product_id: string;
        };
        ComputedFields: never;
        Insert: {
          clicks: number;
          day: string;
          product_id: string;
        };
        Update: {
          clicks?: number;
          day?: string;
          product_id?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'buy_now_clicks_by_product_product_id_fkey';
            columns: ['product_id'];
            isOneToOne: false;
            referencedRelation: 'products';
            referencedColumns: ['id'];
          },
        ];
      };
      catagories: {
        Row: {
          created_at: string;
          id: string;
          title: string;
        };
        ComputedFields: never;
        Insert: {
          created_at?: string;
          id?: string;
          title: string;
        };
        Update: {
          created_at?: string;
          id?: string;
          title?: string;
        };
        Relationships: [];
      };
      catalogue_words: {
        Row: {
          occurrences: number;
          word: string;
        };
        ComputedFields: never;
        Insert: {
          occurrences: number;
          word: string;
        };
        Update: {
          occurrences?: number;
          word?: string;
        };
        Relationships: [];
      };
      contact_messages: {
        Row: {
          archived: boolean;
          attempts: number;
          claimed_at: string | null;
          created_at: string;
          delivery_status: string;
          digest: boolean;
          email: string;
          id: string;
          ip: unknown;
          is_read: boolean;
          last_error: string | null;
          message: string;
          name: string;
          sent_at: string | null;
        };
        ComputedFields: never;
        Insert: {
          archived?: boolean;
          attempts?: number;
          claimed_at?: string | null;
          created_at?: string;
          delivery_status?: string;
          digest?: boolean;
          email: string;
          id?: string;
          ip?: unknown;
          is_read?: boolean;
          last_error?: string | null;
          message: string;
          name: string;
          sent_at?: string | null;
        };
        Update: {
          archived?: boolean;
          attempts?: number;
          claimed_at?: string | null;
          created_at?: string;
          delivery_status?: string;
          digest?: boolean;
          email?: string;
          id?: string;
          ip?: unknown;
          is_read?: boolean;
          last_error?: string | null;
          message?: string;
          name?: string;
          sent_at?: string | null;
        };
        Relationships: [];
      };
      feed_held_changes: {
        Row: {
          change: NonNullable<Json>;
          created_at: string;
          decided_at: string | null;
          decided_by: string | null;
          id: string;
          new_price: number | null;
          offer_id: string;
          old_price: number | null;
          product_id: string;
          run_id: string | null;
          source_id: string;
          status: string;
        };
        ComputedFields: never;
        Insert: {
          change: NonNullable<Json>;
          created_at?: string;
          decided_at?: string | null;
          decided_by?: string | null;
          id?: string;
          new_price?: number | null;
          offer_id: string;
          old_price?: number | null;
          product_id: string;
          run_id?: string | null;
          source_id: string;
          status?: string;
        };
        Update: {
          change?: NonNullable<Json>;
          created_at?: string;
          decided_at?: string | null;
          decided_by?: string | null;
          id?: string;
          new_price?: number | null;
          offer_id?: string;
          old_price?: number | null;
          product_id?: string;
          run_id?: string | null;
          source_id?: string;
          status?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'feed_held_changes_offer_id_fkey';
            columns: ['offer_id'];
            isOneToOne: false;
            referencedRelation: 'offers';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'feed_held_changes_run_id_fkey';
            columns: ['run_id'];
            isOneToOne: false;
            referencedRelation: 'feed_runs';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'feed_held_changes_source_id_fkey';
            columns: ['source_id'];
            isOneToOne: false;
            referencedRelation: 'feed_sources';
            referencedColumns: ['id'];
          },
        ];
      };
      feed_runs: {
        Row: {
          added: number;
          bytes_read: number;
          changed: number;
          created_at: string;
          error: string | null;
          etag: string | null;
          finished_at: string | null;
          heartbeat_at: string | null;
          held: number;
          http_status: number | null;
          id: string;
          invocations: number;
          last_modified: string | null;
          made_unavailable: number;
          matched: number;
          peak_heap_mb: number | null;
          peak_rss_mb: number | null;
          refused: number;
          refused_by_code: NonNullable<Json>;
          refused_sample: NonNullable<Json>;
          requested_by: string | null;
          resume_bytes: number;
          resume_state: Json | null;
          rows_read: number;
          source_id: string;
          started_at: string | null;
          status: string;
          trigger: string;
          unchanged: number;
          unmatched: number;
        };
        ComputedFields: never;
        Insert: {
          added?: number;
          bytes_read?: number;
          changed?: number;
          created_at?: string;
          error?: string | null;
          etag?: string | null;
          finished_at?: string | null;
          heartbeat_at?: string | null;
          held?: number;
          http_status?: number | null;
          id?: string;
          invocations?: number;
          last_modified?: string | null;
          made_unavailable?: number;
          matched?: number;
          peak_heap_mb?: number | null;
          peak_rss_mb?: number | null;
          refused?: number;
          refused_by_code?: NonNullable<Json>;
          refused_sample?: NonNullable<Json>;
          requested_by?: string | null;
          resume_bytes?: number;
          resume_state?: Json | null;
          rows_read?: number;
          source_id: string;
          started_at?: string | null;
          status?: string;
          trigger: string;
          unchanged?: number;
          unmatched?: number;
        };
        Update: {
          added?: number;
          bytes_read?: number;
          changed?: number;
          created_at?: string;
          error?: string | null;
          etag?: string | null;
          finished_at?: string | null;
          heartbeat_at?: string | null;
          held?: number;
          http_status?: number | null;
          id?: string;
          invocations?: number;
          last_modified?: string | null;
          made_unavailable?: number;
          matched?: number;
          peak_heap_mb?: number | null;
          peak_rss_mb?: number | null;
          refused?: number;
          refused_by_code?: NonNullable<Json>;
          refused_sample?: NonNullable<Json>;
          requested_by?: string | null;
          resume_bytes?: number;
          resume_state?: Json | null;
          rows_read?: number;
          source_id?: string;
          started_at?: string | null;
          status?: string;
          trigger?: string;
          unchanged?: number;
          unmatched?: number;
        };
        Relationships: [
          {
            foreignKeyName: 'feed_runs_source_id_fkey';
            columns: ['source_id'];
            isOneToOne: false;
            referencedRelation: 'feed_sources';
            referencedColumns: ['id'];
          },
        ];
      };
      feed_sources: {
        Row: {
          compression: string;
          created_at: string;
          created_by: string | null;
          enabled: boolean;
          etag: string | null;
          failing_since: string | null;
          format: string;
          id: string;
          kind: string;
          last_modified: string | null;
          last_run_at: string | null;
          last_run_id: string | null;
          last_status: string | null;
          mapping: NonNullable<Json>;
          match_by_title: boolean;
          max_change_pct: number;
          name: string;
          next_run_at: string | null;
          origin: string;
          schedule_minutes: number | null;
          seller_id: string;
          updated_at: string;
          upload_path: string | null;
          url: string | null;
        };
        ComputedFields: never;
        Insert: {
          compression?: string;
          created_at?: string;
          created_by?: string | null;
          enabled?: boolean;
          etag?: string | null;
          failing_since?: string | null;
          format?: string;
          id?: string;
          kind?: string;
          last_modified?: string | null;
          last_run_at?: string | null;
          last_run_id?: string | null;
          last_status?: string | null;
          mapping?: NonNullable<Json>;
          match_by_title?: boolean;
          max_change_pct?: number;
          name: string;
          next_run_at?: string | null;
          origin?: string;
          schedule_minutes?: number | null;
          seller_id: string;
          updated_at?: string;
          upload_path?: string | null;
          url?: string | null;
        };
        Update: {
          compression?: string;
          created_at?: string;
          created_by?: string | null;
          enabled?: boolean;
          etag?: string | null;
          failing_since?: string | null;
          format?: string;
          id?: string;
          kind?: string;
          last_modified?: string | null;
          last_run_at?: string | null;
          last_run_id?: string | null;
          last_status?: string | null;
          mapping?: NonNullable<Json>;
          match_by_title?: boolean;
          max_change_pct?: number;
          name?: string;
          next_run_at?: string | null;
          origin?: string;
          schedule_minutes?: number | null;
          seller_id?: string;
          updated_at?: string;
          upload_path?: string | null;
          url?: string | null;
        };
        Relationships: [
          {
            foreignKeyName: 'feed_sources_seller_id_fkey';
            columns: ['seller_id'];
            isOneToOne: false;
            referencedRelation: 'sellers';
            referencedColumns: ['id'];
          },
        ];
      };
      feed_unmatched: {
        Row: {
          brand: string | null;
          first_seen_at: string;
          gtin: string | null;
          id: string;
          image: string | null;
          last_run_id: string | null;
          last_seen_at: string;
          link: string | null;
          match_key: string;
          price: string | null;
          product_id: string | null;
          seller_product_id: string | null;
          source_id: string;
          status: string;
          title: string | null;
        };
        ComputedFields: never;
        Insert: {
          brand?: string | null;
          first_seen_at?: string;
          gtin?: string | null;
          id?: string;
          image?: string | null;
          last_run_id?: string | null;
          last_seen_at?: string;
          link?: string | null;
          match_key: string;
          price?: string | null;
          product_id?: string | null;
          seller_product_id?: string | null;
          source_id: string;
          status?: string;
          title?: string | null;
        };
        Update: {
          brand?: string | null;
          first_seen_at?: string;
          gtin?: string | null;
          id?: string;
          image?: string | null;
          last_run_id?: string | null;
          last_seen_at?: string;
          link?: string | null;
          match_key?: string;
          price?: string | null;
          product_id?: string | null;
          seller_product_id?: string | null;
          source_id?: string;
          status?: string;
          title?: string | null;
        };
        Relationships: [
          {
            foreignKeyName: 'feed_unmatched_source_id_fkey';
            columns: ['source_id'];
            isOneToOne: false;
            referencedRelation: 'feed_sources';
            referencedColumns: ['id'];
          },
        ];
      };
      link_checks: {
        Row: {
          chain: NonNullable<Json>;
          checked_at: string;
          detail: string | null;
          failures: number;
          final_url: string | null;
          http_code: number | null;
          kind: string;
          offer_id: string | null;
          product_id: string;
          status: string;
          url: string;
        };
        ComputedFields: never;
        Insert: {
          chain?: NonNullable<Json>;
          checked_at?: string;
          detail?: string | null;
          failures?: number;
          final_url?: string | null;
          http_code?: number | null;
          kind: string;
          offer_id?: string | null;
          product_id: string;
          status: string;
          url: string;
        };
        Update: {
          chain?: NonNullable<Json>;
          checked_at?: string;
          detail?: string | null;
          failures?: number;
          final_url?: string | null;
          http_code?: number | null;
          kind?: string;
          offer_id?: string | null;
          product_id?: string;
          status?: string;
          url?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'link_checks_offer_id_fkey';
            columns: ['offer_id'];
            isOneToOne: false;
            referencedRelation: 'offers';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'link_checks_product_id_fkey';
            columns: ['product_id'];
            isOneToOne: false;
            referencedRelation: 'products';
            referencedColumns: ['id'];
          },
        ];
      };
      link_health_settings: {
        Row: {
          hide_broken_links: boolean;
          id: boolean;
          updated_at: string;
        };
        ComputedFields: never;
        Insert: {
          hide_broken_links?: boolean;
          id?: boolean;
          updated_at?: string;
        };
        Update: {
          hide_broken_links?: boolean;
          id?: boolean;
          updated_at?: string;
        };
        Relationships: [];
      };
      link_redirect_acceptances: {
        Row: {
          accepted_at: string;
          accepted_by: string | null;
          from_host: string | null;
          id: number;
          product_id: string | null;
          to_host: string;
          url: string | null;
        };
        ComputedFields: never;
        Insert: {
          accepted_at?: string;
          accepted_by?: string | null;
          from_host?: string | null;
          id?: never;
          product_id?: string | null;
          to_host: string;
          url?: string | null;
        };
        Update: {
          accepted_at?: string;
          accepted_by?: string | null;
          from_host?: string | null;
          id?: never;
          product_id?: string | null;
          to_host?: string;
          url?: string | null;
        };
        Relationships: [
          {
            foreignKeyName: 'link_redirect_acceptances_product_id_fkey';
            columns: ['product_id'];
            isOneToOne: false;
            referencedRelation: 'products';
            referencedColumns: ['id'];
          },
        ];
      };
      offer_price_history: {
        Row: {
          changed_at: string;
          id: number;
          offer_id: string;
          price_gbp: number | null;
          product_id: string;
          seller_id: string;
        };
        ComputedFields: never;
        Insert: {
          changed_at?: string;
          id?: never;
          offer_id: string;
          price_gbp?: number | null;
          product_id: string;
          seller_id: string;
        };
        Update: {
          changed_at?: string;
          id?: never;
          offer_id?: string;
          price_gbp?: number | null;
          product_id?: string;
          seller_id?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'offer_price_history_offer_id_fkey';
            columns: ['offer_id'];
            isOneToOne: false;
            referencedRelation: 'offers';
            referencedColumns: ['id'];
          },
        ];
      };
      offers: {
        Row: {
          availability: string | null;
          created_at: string;
          delivery_gbp: number | null;
          feed_source_id: string | null;
          id: string;
          is_primary: boolean;
          link: string;
          price_confirmed_at: string | null;
          price_gbp: number | null;
          price_source: string;
          product_id: string;
          seller_id: string;
          seller_product_id: string | null;
          updated_at: string;
        };
        ComputedFields: never;
        Insert: {
          availability?: string | null;
          created_at?: string;
          delivery_gbp?: number | null;
          feed_source_id?: string | null;
          id?: string;
          is_primary?: boolean;
          link: string;
          price_confirmed_at?: string | null;
          price_gbp?: number | null;
          price_source?: string;
          product_id: string;
          seller_id: string;
          seller_product_id?: string | null;
          updated_at?: string;
        };
        Update: {
          availability?: string | null;
          created_at?: string;
          delivery_gbp?: number | null;
          feed_source_id?: string | null;
          id?: string;
          is_primary?: boolean;
          link?: string;
          price_confirmed_at?: string | null;
          price_gbp?: number | null;
          price_source?: string;
          product_id?: string;
          seller_id?: string;
          seller_product_id?: string | null;
          updated_at?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'offers_feed_source_id_fkey';
            columns: ['feed_source_id'];
            isOneToOne: false;
            referencedRelation: 'feed_sources';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'offers_product_id_fkey';
            columns: ['product_id'];
            isOneToOne: false;
            referencedRelation: 'products';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'offers_seller_id_fkey';
            columns: ['seller_id'];
            isOneToOne: false;
            referencedRelation: 'sellers';
            referencedColumns: ['id'];
          },
        ];
      };
      product_slug_history: {
        Row: {
          product_id: string;
          replaced_at: string;
          slug: string;
        };
        ComputedFields: never;
        Insert: {
          product_id: string;
          replaced_at?: string;
          slug: string;
        };
        Update: {
          product_id?: string;
          replaced_at?: string;
          slug?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'product_slug_history_product_id_fkey';
            columns: ['product_id'];
            isOneToOne: false;
            referencedRelation: 'products';
            referencedColumns: ['id'];
          },
        ];
      };
      products: {
        Row: {
          buy_link: string | null;
          buy_offer_id: string | null;
          buy_seller: string | null;
          cat: string;
          com: string;
          created_at: string;
          gtin: string | null;
          id: string;
          image: string;
          link: string;
          offer_count: number;
          price: string;
          price_checked_at: string | null;
          price_fresh_until: string | null;
          price_value: number | null;
          search_text: string | null;
          slug: string;
          title: string;
          updated_at: string;
        };
        ComputedFields: never;
        Insert: {
          buy_link?: string | null;
          buy_offer_id?: string | null;
          buy_seller?: string | null;
          cat: string;
          com: string;
          created_at?: string;
          gtin?: string | null;
          id?: string;
          image: string;
          link: string;
          offer_count?: number;
          price: string;
          price_checked_at?: string | null;
          price_fresh_until?: string | null;
          price_value?: number | null;
          search_text?: never;
          slug?: string;
          title: string;
          updated_at?: string;
        };
        Update: {
          buy_link?: string | null;
          buy_offer_id?: string | null;
          buy_seller?: string | null;
          cat?: string;
          com?: string;
          created_at?: string;
          gtin?: string | null;
          id?: string;
          image?: string;
          link?: string;
          offer_count?: number;
          price?: string;
          price_checked_at?: string | null;
          price_fresh_until?: string | null;
          price_value?: number | null;
          search_text?: never;
          slug?: string;
          title?: string;
          updated_at?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'products_cat_fkey';
            columns: ['cat'];
            isOneToOne: false;
            referencedRelation: 'catagories';
            referencedColumns: ['title'];
          },
        ];
      };
      sellers: {
        Row: {
          affiliate_param: string | null;
          affiliate_value: string | null;
          created_at: string;
          host: string;
          id: string;
          logo: string | null;
          name: string;
          network: string | null;
          site: string;
          updated_at: string;
        };
        ComputedFields: never;
        Insert: {
          affiliate_param?: string | null;
          affiliate_value?: string | null;
          created_at?: string;
          host?: never;
          id?: string;
          logo?: string | null;
          name: string;
          network?: string | null;
          site: string;
          updated_at?: string;
        };
        Update: {
          affiliate_param?: string | null;
          affiliate_value?: string | null;
          created_at?: string;
          host?: never;
          id?: string;
          logo?: string | null;
          name?: string;
          network?: string | null;
          site?: string;
          updated_at?: string;
        };
        Relationships: [];
      };
      store_settings: {
        Row: {
          admins_require_mfa: boolean;
          company_number: string | null;
          contact_email: string;
          disclosure_text: string;
          facebook_url: string | null;
          id: boolean;
          instagram_url: string | null;
          price_hidden_after_days: number;
          price_stale_after_days: number;
          site_url: string | null;
          store_name: string;
          tiktok_url: string | null;
          trader_address: string | null;
          trader_name: string | null;
          updated_at: string;
          vat_number: string | null;
          x_url: string | null;
          youtube_url: string | null;
        };
        ComputedFields: never;
        Insert: {
          admins_require_mfa?: boolean;
          company_number?: string | null;
          contact_email?: string;
          disclosure_text?: string;
          facebook_url?: string | null;
          id?: boolean;
          instagram_url?: string | null;
          price_hidden_after_days?: number;
          price_stale_after_days?: number;
          site_url?: string | null;
          store_name?: string;
          tiktok_url?: string | null;
          trader_address?: string | null;
          trader_name?: string | null;
          updated_at?: string;
          vat_number?: string | null;
          x_url?: string | null;
          youtube_url?: string | null;
        };
        Update: {
          admins_require_mfa?: boolean;
          company_number?: string | null;
          contact_email?: string;
          disclosure_text?: string;
          facebook_url?: string | null;
          id?: boolean;
          instagram_url?: string | null;
          price_hidden_after_days?: number;
          price_stale_after_days?: number;
          site_url?: string | null;
          store_name?: string;
          tiktok_url?: string | null;
          trader_address?: string | null;
          trader_name?: string | null;
          updated_at?: string;
          vat_number?: string | null;
          x_url?: string | null;
          youtube_url?: string | null;
        };
        Relationships: [];
      };
      storefront_content: {
        Row: {
          about_text: string;
          id: boolean;
          slide_1_alt: string;
          slide_1_heading: string;
          slide_1_image: string;
          slide_1_link: string | null;
          slide_1_text: string;
          slide_2_alt: string;
          slide_2_heading: string;
          slide_2_image: string;
          slide_2_link: string | null;
          slide_2_text: string;
          slide_3_alt: string;
          slide_3_heading: string;
          slide_3_image: string;
          slide_3_link: string | null;
          slide_3_text: string;
          updated_at: string;
        };
        ComputedFields: never;
        Insert: {
          about_text?: string;
          id?: boolean;
          slide_1_alt?: string;
          slide_1_heading?: string;
          slide_1_image?: string;
          slide_1_link?: string | null;
          slide_1_text?: string;
          slide_2_alt?: string;
          slide_2_heading?: string;
          slide_2_image?: string;
          slide_2_link?: string | null;
          slide_2_text?: string;
          slide_3_alt?: string;
          slide_3_heading?: string;
          slide_3_image?: string;
          slide_3_link?: string | null;
          slide_3_text?: string;
          updated_at?: string;
        };
        Update: {
          about_text?: string;
          id?: boolean;
          slide_1_alt?: string;
          slide_1_heading?: string;
          slide_1_image?: string;
          slide_1_link?: string | null;
          slide_1_text?: string;
          slide_2_alt?: string;
          slide_2_heading?: string;
          slide_2_image?: string;
          slide_2_link?: string | null;
          slide_2_text?: string;
          slide_3_alt?: string;
          slide_3_heading?: string;
          slide_3_image?: string;
          slide_3_link?: string | null;
          slide_3_text?: string;
          updated_at?: string;
        };
        Relationships: [];
      };
    };
    Views: {
      [_ in never]: never;
    };
    Functions: {
      admin_add_catagory: { Args: { p_title: string }; Returns: Json };
      admin_add_product: {
        Args: {
          p_cat: string;
          p_com: string;
          p_image: string;
          p_link: string;
          p_price: string;
          p_title: string;
        };
        Returns: Json;
      };
      admin_delete_catagory: { Args: { p_id: string; p_move_to?: string }; Returns: number };
      admin_delete_product: { Args: { p_id: string }; Returns: Json };
      admin_delete_products: { Args: { p_ids: string[] }; Returns: number };
      admin_factors: {
        Args: Record<PropertyKey, never>;
        Returns: {
          created_at: string;
          factor_id: string;
          user_id: string;
        }[];
      };
      admin_move_products: { Args: { p_cat: string; p_ids: string[] }; Returns: number };
      admin_product_count: { Args: { p_query: Json }; Returns: Json };
      admin_product_page: {
        Args: { p_limit?: number; p_offset?: number; p_query: Json };
        Returns: {
          buy_link: string | null;
          buy_offer_id: string | null;
          buy_seller: string | null;
          cat: string;
          com: string;
          created_at: string;
          gtin: string | null;
          id: string;
          image: string;
          link: string;
          offer_count: number;
          price: string;
          price_checked_at: string | null;
          price_fresh_until: string | null;
          price_value: number | null;
          search_text: string | null;
          slug: string;
          title: string;
          updated_at: string;
        }[];
        SetofOptions: {
          from: '*';
          to: 'products';
          isOneToOne: false;
          isSetofReturn: true;
        };
      };
      admin_remove_colleague_factor: { Args: { p_factor_id: string }; Returns: string };
      admin_team: {
        Args: Record<PropertyKey, never>;
        Returns: {
          admin_since: string;
          email: string;
          invited_by_email: string;
          invited_by_name: string;
          name: string;
          user_id: string;
        }[];
      };
      admin_update_catagory: { Args: { p_id: string; p_title: string }; Returns: Json };
      admin_update_product: {
        Args: {
          p_cat: string;
          p_com: string;
          p_id: string;
          p_image: string;
          p_link: string;
          p_loaded_updated_at: string;
          p_price: string;
          p_title: string;
        };
        Returns: Json;
      };
      applied_migrations: {
        Args: Record<PropertyKey, never>;
        Returns: {
          name: string;
          version: string;
        }[];
      };
      catagory_current_title: { Args: { p_title: string }; Returns: string };
      catagory_product_counts: {
        Args: Record<PropertyKey, never>;
        Returns: {
          cat: string;
          products: number;
        }[];
      };
      catalogue_import_apply: {
        Args: {
          p_create_categories: boolean;
          p_dry_run: boolean;
          p_import_id: string;
          p_mode: string;
        };
        Returns: Json;
      };
      catalogue_import_stage: { Args: { p_import_id: string; p_rows: Json }; Returns: number };
      catalogue_title_in_use: {
        Args: { p_except_id?: string; p_table: string; p_title: string };
        Returns: boolean;
      };
      contact_claim_digest: {
        Args: { p_lease_seconds: number; p_limit: number };
        Returns: {
          archived: boolean;
          attempts: number;
          claimed_at: string | null;
          created_at: string;
          delivery_status: string;
          digest: boolean;
          email: string;
          id: string;
          ip: unknown;
          is_read: boolean;
          last_error: string | null;
          message: string;
          name: string;
          sent_at: string | null;
        }[];
        SetofOptions: {
          from: '*';
          to: 'contact_messages';
          isOneToOne: false;
          isSetofReturn: true;
        };
      };
      contact_claim_undelivered: {
        Args: { p_lease_seconds: number; p_limit: number };
        Returns: {
          archived: boolean;
          attempts: number;
          claimed_at: string | null;
          created_at: string;
          delivery_status: string;
          digest: boolean;
          email: string;
          id: string;
          ip: unknown;
          is_read: boolean;
          last_error: string | null;
          message: string;
          name: string;
          sent_at: string | null;
        }[];
        SetofOptions: {
          from: '*';
          to: 'contact_messages';
          isOneToOne: false;
          isSetofReturn: true;
        };
      };
      contact_record_delivery: {
        Args: { p_error?: string; p_id: string; p_sent: boolean };
        Returns: boolean;
      };
      contact_record_digest: {
        Args: { p_error?: string; p_ids: string[]; p_sent: boolean };
        Returns: number;
      };
      contact_submit: {
        Args: {
          p_claim: boolean;
          p_daily_mail_cap?: number;
          p_email: string;
          p_global_max?: number;
          p_ip: string;
          p_max: number;
          p_message: string;
          p_name: string;
          p_window_seconds: number;
        };
        Returns: Json;
      };
      count_buy_now_click: {
        Args: { p_offer_id?: string; p_page: string; p_page_view: string; p_product_id: string };
        Returns: string;
      };
      email_registered: { Args: { p_email: string }; Returns: boolean };
      feed_held_decide: { Args: { p_apply: boolean; p_ids: string[] }; Returns: number };
      feed_run_apply: { Args: { p_run_id: string }; Returns: Json };
      feed_run_fail: { Args: { p_error: string; p_run_id: string }; Returns: Json };
      feed_run_request: { Args: { p_source_id: string }; Returns: string };
      feed_run_restart: { Args: { p_run_id: string }; Returns: undefined };
      feed_run_staged: {
        Args: { p_etag: string; p_last_modified: string; p_run_id: string };
        Returns: undefined;
      };
      feed_run_unchanged: { Args: { p_http_status: number; p_run_id: string }; Returns: Json };
      feed_stage_rows: { Args: { p_rows: Json; p_run_id: string }; Returns: number };
      feed_sync_claim: { Args: { p_max?: number }; Returns: Json };
      feed_sync_progress: { Args: { p_patch: Json; p_run_id: string }; Returns: undefined };
      feed_sync_take: { Args: { p_run_id: string }; Returns: Json };
      feed_unmatched_create_product: {
        Args: { p_cat: string; p_com: string; p_id: string };
        Returns: string;
      };
      feed_unmatched_ignore: { Args: { p_ids: string[] }; Returns: number };
      feed_unmatched_reopen: { Args: { p_ids: string[] }; Returns: number };
      hook_mfa_verification_attempt: { Args: { event: Json }; Returns: Json };
      insights_clicks_per_day: {
        Args: { p_days: number };
        Returns: {
          clicks: number;
          day: string;
        }[];
      };
      insights_products_without_clicks: {
        Args: { p_days: number; p_limit: number };
        Returns: {
          category: string;
          product_id: string;
          title: string;
          total: number;
        }[];
      };
      insights_top_categories: {
        Args: { p_days: number; p_limit: number };
        Returns: {
          category: string;
          clicks: number;
        }[];
      };
      insights_top_products: {
        Args: { p_days: number; p_limit: number; p_offset: number };
        Returns: {
          category: string;
          clicks: number;
          product_id: string;
          title: string;
        }[];
      };
      is_admin: { Args: Record<PropertyKey, never>; Returns: boolean };
      link_health_due: {
        Args: { p_limit: number };
        Returns: {
          id: string;
          image: string;
          link: string;
        }[];
      };
      my_admin_access: { Args: Record<PropertyKey, never>; Returns: Json };
      open_admin_invites: {
        Args: Record<PropertyKey, never>;
        Returns: {
          account: string;
          email: string;
          invited_at: string;
          invited_by_email: string;
          invited_by_name: string;
          last_sent_at: string;
        }[];
      };
      price_number: { Args: { p_price: string }; Returns: number };
      product_offers: {
        Args: { p_product_id: string };
        Returns: {
          availability: string;
          delivery_gbp: number;
          freshness: string;
          is_primary: boolean;
          link: string;
          offer_id: string;
          price_confirmed_at: string;
          price_gbp: number;
          seller_id: string;
          seller_logo: string;
          seller_name: string;
          seller_site: string;
        }[];
      };
      product_page: { Args: { p_slug: string }; Returns: Json };
      product_price_drops: {
        Args: { p_limit?: number; p_product_id: string };
        Returns: {
          changed_at: string;
          history_id: number;
          offer_id: string;
          previous_gbp: number;
          price_gbp: number;
          seller_name: string;
        }[];
      };
      product_price_history: {
        Args: { p_days?: number; p_product_id: string };
        Returns: {
          day: string;
          lowest_gbp: number;
        }[];
      };
      record_link_checks: { Args: { p_results: Json }; Returns: number };
      remove_admin: { Args: { p_user_id: string }; Returns: boolean };
      request_client_address: { Args: Record<PropertyKey, never>; Returns: string };
      resend_admin_invite: { Args: { p_email: string }; Returns: boolean };
      search_key: { Args: { p_text: string }; Returns: string };
      sitemap_products: { Args: { p_page: number }; Returns: Json };
      sitemap_summary: { Args: Record<PropertyKey, never>; Returns: Json };
      storefront_page: {
        Args: {
          p_after_id?: string;
          p_after_price?: string;
          p_after_title?: string;
          p_cat?: string;
          p_limit?: number;
        };
        Returns: {
          buy_link: string | null;
          buy_offer_id: string | null;
          buy_seller: string | null;
          cat: string;
          com: string;
          created_at: string;
          gtin: string | null;
          id: string;
          image: string;
          link: string;
          offer_count: number;
          price: string;
          price_checked_at: string | null;
          price_fresh_until: string | null;
          price_value: number | null;
          search_text: string | null;
          slug: string;
          title: string;
          updated_at: string;
        }[];
        SetofOptions: {
          from: '*';
          to: 'products';
          isOneToOne: false;
          isSetofReturn: true;
        };
      };
      storefront_search: {
        Args: {
          p_after_created?: string;
          p_after_id?: string;
          p_after_price?: string;
          p_after_title?: string;
          p_cat?: string;
          p_limit?: number;
          p_query?: string;
          p_sort?: string;
        };
        Returns: {
          buy_link: string | null;
          buy_offer_id: string | null;
          buy_seller: string | null;
          cat: string;
          com: string;
          created_at: string;
          gtin: string | null;
          id: string;
          image: string;
          link: string;
          offer_count: number;
          price: string;
          price_checked_at: string | null;
          price_fresh_until: string | null;
          price_value: number | null;
          search_text: string | null;
          slug: string;
          title: string;
          updated_at: string;
        }[];
        SetofOptions: {
          from: '*';
          to: 'products';
          isOneToOne: false;
          isSetofReturn: true;
        };
      };
      withdraw_admin_invite: { Args: { p_email: string }; Returns: boolean };
    };
    Enums: {
      [_ in never]: never;
    };
    CompositeTypes: {
      [_ in never]: never;
    };
  };
};

type DatabaseWithoutInternals = Omit<Database, '__InternalSupabase'>;

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, 'public'>];

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema['Tables'] & DefaultSchema['Views'])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables'] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Views'])
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables'] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Views'])[TableName] extends {
      Row: infer R;
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema['Tables'] & DefaultSchema['Views'])
    ? (DefaultSchema['Tables'] & DefaultSchema['Views'])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R;
      }
      ? R
      : never
    : never;

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    keyof DefaultSchema['Tables'] | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables']
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables'][TableName] extends {
      Insert: infer I;
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema['Tables']
    ? DefaultSchema['Tables'][DefaultSchemaTableNameOrOptions] extends {
        Insert: infer I;
      }
      ? I
      : never
    : never;

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    keyof DefaultSchema['Tables'] | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables']
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables'][TableName] extends {
      Update: infer U;
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema['Tables']
    ? DefaultSchema['Tables'][DefaultSchemaTableNameOrOptions] extends {
        Update: infer U;
      }
      ? U
      : never
    : never;

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    keyof DefaultSchema['Enums'] | { schema: keyof DatabaseWithoutInternals },
  EnumName extends (DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions['schema']]['Enums']
    : never) = never,
> = DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions['schema']]['Enums'][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema['Enums']
    ? DefaultSchema['Enums'][DefaultSchemaEnumNameOrOptions]
    : never;

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    keyof DefaultSchema['CompositeTypes'] | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends (PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals;
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions['schema']]['CompositeTypes']
    : never) = never,
> = PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions['schema']]['CompositeTypes'][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema['CompositeTypes']
    ? DefaultSchema['CompositeTypes'][PublicCompositeTypeNameOrOptions]
    : never;

export const Constants = {
  public: {
    Enums: {},
  },
} as const;
