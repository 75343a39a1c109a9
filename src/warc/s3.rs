//! s3:// inputs (the `s3` feature): objects are read through the `ureq` agent of http(s) inputs
//! (`fetch`), with URLs that `rusty-s3` signs anew for each request, so they are streamed,
//! retried and resumed with `Range` exactly as http(s) inputs are.
//!
//! Where and as whom the requests go is read from the environment as AWS's own tools read it
//! ([`Config::from_env`]): credentials from `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and
//! `AWS_SESSION_TOKEN`, else from the profile (`AWS_PROFILE`, default `default`) in
//! `~/.aws/credentials` (`AWS_SHARED_CREDENTIALS_FILE`) or `~/.aws/config` (`AWS_CONFIG_FILE`);
//! without any, requests are anonymous (unsigned), which a public bucket allows. The region is
//! `AWS_REGION`, `AWS_DEFAULT_REGION` or the profile's `region` (default `us-east-1`); the
//! endpoint `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL` or the profile's `endpoint_url` (an
//! S3-compatible store, addressed path-style), else AWS's own for the region.

use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

use rusty_s3::actions::{GetObject, ListObjectsV2};
use rusty_s3::{Bucket, Credentials, S3Action, UrlStyle};

use super::fetch;
use super::remote::{Retry, s3_parts};
use crate::error::{Error, ErrorKind};
use crate::stop::Stop;

/// How long a signed request stays valid. Each request is signed when it is sent, so this
/// only needs to cover one request's wait for its response.
const EXPIRES: Duration = Duration::from_secs(3600);

/// Where and as whom s3:// requests go.
#[derive(Debug, Clone)]
pub struct Config {
    /// A custom endpoint (an S3-compatible store), or `None` for AWS's endpoint of the region.
    pub endpoint: Option<url::Url>,
    /// The region requests are signed for.
    pub region: String,
    /// The credentials, or `None` for anonymous (unsigned) requests.
    credentials: Option<Credentials>,
}

impl Config {
    /// The configuration that AWS's own tools would use, from the environment and the profile
    /// files (see the [module](self)). `Err` when `AWS_PROFILE` names a profile that neither
    /// file has, when a profile has an access key without its secret, or when the endpoint is
    /// not a URL.
    pub fn from_env() -> Result<Config, String> {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        let home = var("HOME").map(PathBuf::from);
        let file = |var_name: &str, name: &str| {
            var(var_name)
                .map(PathBuf::from)
                .or_else(|| home.as_ref().map(|h| h.join(".aws").join(name)))
        };
        let named = var("AWS_PROFILE").or_else(|| var("AWS_DEFAULT_PROFILE"));
        let profile = named.clone().unwrap_or_else(|| "default".into());
        let credentials_file = file("AWS_SHARED_CREDENTIALS_FILE", "credentials");
        let config_file = file("AWS_CONFIG_FILE", "config");
        let from_credentials = credentials_file
            .as_ref()
            .and_then(|f| ini_section(f, &profile));
        let config_section = if profile == "default" {
            "default".to_string()
        } else {
            format!("profile {profile}")
        };
        let from_config = config_file
            .as_ref()
            .and_then(|f| ini_section(f, &config_section));
        if let Some(p) = &named
            && from_credentials.is_none()
            && from_config.is_none()
        {
            return Err(format!(
                "AWS_PROFILE {p:?}: no such profile in {} or {}",
                show(credentials_file.as_ref()),
                show(config_file.as_ref())
            ));
        }
        let get = |k: &str| {
            [&from_credentials, &from_config]
                .into_iter()
                .flatten()
                .find_map(|s| s.get(k))
        };
        let credentials = match (var("AWS_ACCESS_KEY_ID"), var("AWS_SECRET_ACCESS_KEY")) {
            (Some(key), Some(secret)) => Some(with_token(key, secret, var("AWS_SESSION_TOKEN"))),
            (Some(_), None) => {
                return Err("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not".into());
            }
            _ => {
                // The key, secret and token of one section, not a mix of the two files.
                let section = [&from_credentials, &from_config]
                    .into_iter()
                    .flatten()
                    .find(|s| s.get("aws_access_key_id").is_some());
                match section {
                    Some(s) => {
                        let secret = s.get("aws_secret_access_key").ok_or_else(|| {
                            format!("profile {profile:?} has aws_access_key_id but no aws_secret_access_key")
                        })?;
                        Some(with_token(
                            s.get("aws_access_key_id").unwrap_or_default(),
                            secret,
                            s.get("aws_session_token"),
                        ))
                    }
                    None => None,
                }
            }
        };
        let region = var("AWS_REGION")
            .or_else(|| var("AWS_DEFAULT_REGION"))
            .or_else(|| get("region"))
            .unwrap_or_else(|| "us-east-1".into());
        let endpoint = match var("AWS_ENDPOINT_URL_S3")
            .or_else(|| var("AWS_ENDPOINT_URL"))
            .or_else(|| get("endpoint_url"))
        {
            Some(e) => Some(
                url::Url::parse(e.trim())
                    .map_err(|err| format!("endpoint {e:?} is not a URL: {err}"))?,
            ),
            None => None,
        };
        Ok(Config {
            endpoint,
            region,
            credentials,
        })
    }

    /// Whether requests are signed (credentials were found).
    pub fn signed(&self) -> bool {
        self.credentials.is_some()
    }

    /// The bucket `name` at the endpoint: path-style at a custom endpoint (S3-compatible stores
    /// often have no DNS for their buckets), virtual-host style at AWS unless the name cannot
    /// be a host name (or has a dot, which AWS's TLS certificates do not cover).
    fn bucket(&self, name: &str) -> Result<Bucket, String> {
        let fail = |e: rusty_s3::BucketError| format!("bucket {name:?}: {e:?}");
        let region = self.region.clone();
        match &self.endpoint {
            Some(e) => {
                Bucket::new(e.clone(), UrlStyle::Path, name.to_string(), region).map_err(fail)
            }
            None => {
                let aws = url::Url::parse(&format!("https://s3.{}.amazonaws.com", self.region))
                    .map_err(|e| format!("region {:?}: {e}", self.region))?;
                if !name.contains('.')
                    && let Ok(b) = Bucket::new(
                        aws.clone(),
                        UrlStyle::VirtualHost,
                        name.to_string(),
                        region.clone(),
                    )
                {
                    return Ok(b);
                }
                Bucket::new(aws, UrlStyle::Path, name.to_string(), region).map_err(fail)
            }
        }
    }
}

/// Credentials with a session token if there is one.
fn with_token(key: String, secret: String, token: Option<String>) -> Credentials {
    match token {
        Some(t) => Credentials::new_with_token(key, secret, t),
        None => Credentials::new(key, secret),
    }
}

fn show(p: Option<&PathBuf>) -> String {
    p.map_or_else(|| "(no HOME)".into(), |p| p.display().to_string())
}

/// The `key = value` lines of section `[name]` of an INI file (AWS's profile files), or `None`
/// when the file or the section is missing.
fn ini_section(path: &std::path::Path, name: &str) -> Option<Section> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut found = None;
    let mut current: Option<&str> = None;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(section) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            current = Some(section.trim());
            if current == Some(name) {
                found.get_or_insert_with(Vec::new);
            }
            continue;
        }
        if current == Some(name)
            && let Some((k, v)) = line.split_once('=')
        {
            found
                .get_or_insert_with(Vec::new)
                .push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    found.map(Section)
}

/// A profile's settings.
struct Section(Vec<(String, String)>);

impl Section {
    fn get(&self, key: &str) -> Option<String> {
        self.0
            .iter()
            .find(|(k, v)| k == key && !v.is_empty())
            .map(|(_, v)| v.clone())
    }
}

/// One S3 object of an `s3://bucket/key` URL.
pub(super) struct Object {
    url: String,
    bucket: Bucket,
    key: String,
    credentials: Option<Credentials>,
}

impl Object {
    /// The object of `url`, to be reached as the environment says.
    pub(super) fn new(url: &str) -> Result<Object, String> {
        let (bucket, key) =
            s3_parts(url).ok_or_else(|| "not an s3://bucket/key URL".to_string())?;
        if key.is_empty() || key.ends_with('/') {
            return Err("names no object (a key ending in `/` is a prefix)".into());
        }
        let config = Config::from_env()?;
        Ok(Object {
            url: url.to_string(),
            bucket: config.bucket(bucket)?,
            key: key.to_string(),
            credentials: config.credentials,
        })
    }
}

impl fetch::Signed for Object {
    /// The s3:// URL, for messages.
    fn url(&self) -> &str {
        &self.url
    }

    /// A URL for one `GET` of the object, signed now (or unsigned, for anonymous access).
    fn request_url(&self) -> String {
        GetObject::new(&self.bucket, self.credentials.as_ref(), &self.key)
            .sign(EXPIRES)
            .to_string()
    }

    /// S3 says why in an XML body ([`error_message`]).
    fn error_message(&self, status: u16, body: &str) -> String {
        error_message(status, body)
    }
}

/// What an S3 error response says: "not found (HTTP status 404, NoSuchKey: The specified key
/// does not exist.)". `body` is the response's XML, if any.
pub(super) fn error_message(status: u16, body: &str) -> String {
    let tag = |t: &str| {
        let open = format!("<{t}>");
        let start = body.find(&open)? + open.len();
        let len = body[start..].find(&format!("</{t}>"))?;
        Some(body[start..start + len].trim().to_string())
    };
    let what = match status {
        404 => "not found",
        403 => "access denied",
        401 => "unauthorized",
        400 => "bad request",
        301 | 307 => "in another region or at another endpoint",
        _ => "failed",
    };
    match (tag("Code"), tag("Message")) {
        (Some(c), Some(m)) if !m.is_empty() => {
            format!("{what} (HTTP status {status}, {c}: {m})")
        }
        (Some(c), _) => format!("{what} (HTTP status {status}, {c})"),
        _ => format!("{what} (HTTP status {status})"),
    }
}

/// The s3:// URLs of the objects directly "in" `prefix_url` (`s3://bucket/dir/`) as in a
/// directory: their keys start with its key and have no further `/`. In S3's order (by key);
/// requests are retried as `retry` says, and a wait for a retry ends at `stop`.
pub fn list_dir(prefix_url: &str, retry: Retry, stop: &Stop) -> Result<Vec<String>, Error> {
    let fail = |msg: String| {
        Error::new(ErrorKind::Input, format!("cannot list {prefix_url}: {msg}"))
            .concerning(prefix_url)
    };
    let (name, prefix) =
        s3_parts(prefix_url).ok_or_else(|| fail("not an s3://bucket/prefix URL".into()))?;
    let config = Config::from_env().map_err(fail)?;
    let bucket = config.bucket(name).map_err(fail)?;
    let agent = fetch::agent(&retry);
    let mut urls = Vec::new();
    let mut token: Option<String> = None;
    loop {
        let mut action = ListObjectsV2::new(&bucket, config.credentials.as_ref());
        action.with_delimiter("/");
        if !prefix.is_empty() {
            action.with_prefix(prefix);
        }
        if let Some(t) = &token {
            action.with_continuation_token(t.as_str());
        }
        let url = action.sign(EXPIRES).to_string();
        let body = get_text(&agent, &url, prefix_url, &retry, stop).map_err(fail)?;
        let page = ListObjectsV2::parse_response(&body)
            .map_err(|e| fail(format!("cannot parse the listing: {e}")))?;
        urls.extend(
            page.contents
                .iter()
                .map(|c| format!("s3://{name}/{}", c.key)),
        );
        match page.next_continuation_token {
            Some(t) => token = Some(t),
            None => return Ok(urls),
        }
    }
}

/// The body of a `GET` of `url` as text, retried on transient failures.
fn get_text(
    agent: &ureq::Agent,
    url: &str,
    name: &str,
    retry: &Retry,
    stop: &Stop,
) -> Result<String, String> {
    let mut attempt = 0;
    loop {
        let (error, transient) = match agent.get(url).call() {
            Ok(resp) => {
                let status = resp.status().as_u16();
                let mut body = String::new();
                let read = resp
                    .into_body()
                    .into_reader()
                    .take(64 << 20)
                    .read_to_string(&mut body);
                match (status, read) {
                    (200, Ok(_)) => return Ok(body),
                    (200, Err(e)) => (e.to_string(), true),
                    (s, _) => (error_message(s, &body), fetch::transient_status(s)),
                }
            }
            Err(e) => {
                let transient = fetch::transient_error(&e);
                (e.to_string(), transient)
            }
        };
        attempt += 1;
        if !transient || attempt > retry.retries {
            return Err(error);
        }
        retry
            .pause(attempt, &format!("{name}: {error}"), None, stop)
            .map_err(|e| e.to_string())?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_responses_say_what_and_why() {
        let body = "<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>";
        assert_eq!(
            error_message(404, body),
            "not found (HTTP status 404, NoSuchKey: The specified key does not exist.)"
        );
        assert_eq!(error_message(403, ""), "access denied (HTTP status 403)");
    }

    #[test]
    fn profile_sections_are_read() {
        let dir = std::env::temp_dir().join(format!("cowrex-s3-ini-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("credentials");
        std::fs::write(
            &f,
            "[default]\naws_access_key_id = A\n# note\n[other]\naws_access_key_id=B\naws_secret_access_key = S = T\n",
        )
        .unwrap();
        let s = ini_section(&f, "other").unwrap();
        assert_eq!(s.get("aws_access_key_id").as_deref(), Some("B"));
        assert_eq!(s.get("aws_secret_access_key").as_deref(), Some("S = T"));
        assert_eq!(
            ini_section(&f, "default")
                .unwrap()
                .get("aws_access_key_id")
                .as_deref(),
            Some("A")
        );
        assert!(ini_section(&f, "missing").is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
