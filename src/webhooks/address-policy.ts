import ipaddr from 'ipaddr.js';

/**
 * Where webhook requests may go. Only public unicast addresses: never loopback, private,
 * link-local (which holds the cloud metadata address 169.254.169.254), carrier-grade NAT,
 * multicast, reserved or unspecified ones, also when written as an IPv4-mapped IPv6 address.
 * ipaddr.js names the special-purpose ranges of the IANA registries; anything but `unicast` is
 * refused. Pure: the sender applies it to every address a host name resolves to, at send time.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** The host of a URL as an IP literal (brackets of IPv6 removed), or null for a host name. */
export function ipLiteralOf(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(host) ? host : null;
}
