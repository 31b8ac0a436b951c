// What a browser keeps for clubs: its device key (one per browser, 256 random bits: the
// device's credential at every club it is a member of, kept only here and as a hash on the
// server) and the club secrets of the clubs it hosts.

/** This browser's device key, made on first use. */
export function deviceKey() {
  let key = localStorage.getItem("guts:device");
  if (!key) {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    localStorage.setItem("guts:device", key);
  }
  return key;
}

/** The club secret this browser keeps for ``clubId`` (from a host link's #host=, which is
 * then taken out of the address bar), or null. */
export function hostSecret(clubId) {
  const given = new URLSearchParams(location.hash.slice(1)).get("host");
  if (given && location.pathname.startsWith("/c/")) {
    localStorage.setItem(`guts:club-secret:${clubId}`, given);
    history.replaceState(null, "", location.pathname);
  }
  return localStorage.getItem(`guts:club-secret:${clubId}`);
}

/** The club this browser hosts, as the lobby keeps it ({id, name, secret}), or null. */
export function hostedClub() {
  try {
    const club = JSON.parse(localStorage.getItem("guts:hosted-club") || "null");
    return club && club.id && club.secret ? club : null;
  } catch (error) {
    return null;
  }
}

export function keepHostedClub(club) {
  localStorage.setItem("guts:hosted-club", JSON.stringify(club));
  localStorage.setItem(`guts:club-secret:${club.id}`, club.secret);
}
