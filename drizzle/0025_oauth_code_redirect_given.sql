-- A code remembers whether its authorization request named redirect_uri: only then must the token request repeat
-- it (RFC 6749 §4.1.3). Codes issued before this were all asked with one (the default).
ALTER TABLE "oauth_codes" ADD COLUMN "redirect_uri_given" boolean DEFAULT true NOT NULL;