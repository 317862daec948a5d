package io.aasm.transport.proxy.internal.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The policy core: which destination a grant admits, what is never resolved, and which addresses are refused. */
class AdmissionTest {
    private final List<String> asked = new ArrayList<>();
    private final Map<String, List<String>> dns = Map.of(
            "pypi.test", List.of("93.184.216.34"),
            "rebind.test", List.of("10.1.2.3"),
            "mixed.test", List.of("127.0.0.5", "93.184.216.35"),
            "meta.test", List.of("169.254.169.254"));
    private final Resolver resolver = name -> {
        asked.add(name);
        List<String> a = dns.get(name);
        if (a == null) {
            throw new UnknownHostException(name + ": no such name");
        }
        List<InetAddress> out = new ArrayList<>();
        for (String s : a) {
            out.add(Literals.parse(s).orElseThrow());
        }
        return out;
    };
    private final SpecialAddresses special = new SpecialAddresses(a -> a.getHostAddress().equals("192.0.2.9"));

    private static EgressGrant tcp(String host, int from, int to) {
        return new EgressGrant(Protocol.TCP, host, from, to);
    }

    private Admission admission(List<EgressGrant> grants, Map<String, String> pins) {
        SortedMap<String, String> p = new TreeMap<>(pins);
        return new Admission(grants, p, resolver, special);
    }

    @Test
    void aGrantedNameIsResolvedByTheProxyAndDialledAtThatAddress() {
        Verdict v = admission(List.of(tcp("pypi.test", 443, 443)), Map.of()).decide("PyPI.Test.", 443);
        Verdict.Admitted a = assertInstanceOf(Verdict.Admitted.class, v);
        assertEquals("93.184.216.34", a.addresses().get(0).getHostAddress());
        assertEquals("{host: pypi.test, port: 443}", a.grant());
        assertEquals(List.of("pypi.test"), asked);
    }

    @Test
    void anUngrantedNameIsRefusedWithoutAnyLookup() {
        Admission ad = admission(List.of(tcp("pypi.test", 443, 443)), Map.of());
        Verdict.Refused r = assertInstanceOf(Verdict.Refused.class, ad.decide("secret-token.evil.test", 443));
        assertTrue(r.reason().contains("was not resolved"), r.reason());
        assertEquals(List.of(), asked, "an ungranted name must not reach a resolver (DNS exfiltration)");
    }

    @Test
    void anotherPortOfAGrantedNameIsRefused() {
        Verdict.Refused r = assertInstanceOf(Verdict.Refused.class,
                admission(List.of(tcp("pypi.test", 443, 443)), Map.of()).decide("pypi.test", 80));
        assertEquals("port 80 of pypi.test is not granted", r.reason());
        assertEquals(List.of(), asked);
    }

    @Test
    void aGrantedNameWhoseAnswerIsPrivateIsRefusedButAPinOrAnExplicitBlockAdmitsIt() {
        Verdict.Refused r = assertInstanceOf(Verdict.Refused.class,
                admission(List.of(tcp("rebind.test", 443, 443)), Map.of()).decide("rebind.test", 443));
        assertTrue(r.reason().contains("10.1.2.3 is a private address"), r.reason());
        assertEquals("10.1.2.3", r.resolved().orElseThrow());
        assertInstanceOf(Verdict.Admitted.class, admission(List.of(tcp("rebind.test", 443, 443),
                tcp("10.0.0.0/8", 443, 443)), Map.of()).decide("rebind.test", 443));
        assertInstanceOf(Verdict.Admitted.class, admission(List.of(tcp("rebind.test", 443, 443)),
                Map.of("rebind.test", "10.9.9.9")).decide("rebind.test", 443));
    }

    @Test
    void onlyThePublicAnswersOfAMixedNameAreDialled() {
        Verdict.Admitted a = assertInstanceOf(Verdict.Admitted.class,
                admission(List.of(tcp("mixed.test", 80, 80)), Map.of()).decide("mixed.test", 80));
        assertEquals(List.of("93.184.216.35"), a.addresses().stream().map(InetAddress::getHostAddress).toList());
    }

    @Test
    void everyAddressMeansEveryPublicAddress() {
        Admission ad = admission(List.of(tcp("0.0.0.0/0", 443, 443), tcp("::/0", 443, 443)), Map.of());
        assertInstanceOf(Verdict.Admitted.class, ad.decide("93.184.216.34", 443));
        for (String special : List.of("10.0.0.1", "127.0.0.1", "169.254.169.254", "100.64.0.1", "[::1]", "fd00::1",
                "[::ffff:127.0.0.1]", "192.0.2.9", "[64:ff9b::a00:1]", "168.63.129.16", "0.0.0.0")) {
            assertInstanceOf(Verdict.Refused.class, ad.decide(special, 443), special);
        }
        assertInstanceOf(Verdict.Refused.class, ad.decide("93.184.216.34", 80), "port");
        assertInstanceOf(Verdict.Refused.class, ad.decide("pypi.test", 443), "a name needs a name grant");
        assertEquals(List.of(), asked);
    }

    @Test
    void aMetadataAddressNeedsItsOwnGrant() {
        assertInstanceOf(Verdict.Refused.class, admission(List.of(tcp("meta.test", 80, 80)), Map.of())
                .decide("meta.test", 80));
        assertInstanceOf(Verdict.Refused.class, admission(List.of(tcp("169.254.0.0/16", 80, 80),
                tcp("0.0.0.0/0", 80, 80)), Map.of()).decide("169.254.169.254", 81));
        assertInstanceOf(Verdict.Admitted.class, admission(List.of(tcp("169.254.169.254", 80, 80)), Map.of())
                .decide("169.254.169.254", 80));
    }

    @Test
    void loopbackGrantsNameEveryLoopbackAddressAndNothingElse() {
        Admission ad = admission(List.of(tcp("loopback", 8080, 8080)), Map.of());
        for (String h : List.of("127.0.0.1", "127.0.0.2", "[::1]", "::1", "[::ffff:127.0.0.1]")) {
            assertInstanceOf(Verdict.Admitted.class, ad.decide(h, 8080), h);
        }
        for (String h : List.of("localhost", "127.1", "2130706433", "0x7f000001", "10.0.0.1", "0177.0.0.1")) {
            assertInstanceOf(Verdict.Refused.class, ad.decide(h, 8080), h);
        }
        assertEquals(List.of(), asked, "numeric spellings are never handed to a resolver");
    }

    @Test
    void aPinnedNameIsAdmittedByAnAddressGrantOfItsPin() {
        Admission ad = admission(List.of(tcp("loopback", 9000, 9000)), Map.of("svc.test", "127.0.0.7"));
        Verdict.Admitted a = assertInstanceOf(Verdict.Admitted.class, ad.decide("svc.test", 9000));
        assertEquals("127.0.0.7", a.addresses().get(0).getHostAddress());
        assertInstanceOf(Verdict.Refused.class, ad.decide("svc.test", 9001));
        assertEquals(List.of(), asked);
    }

    @Test
    void udpGrantsAndMalformedDestinationsAdmitNothing() {
        Admission ad = admission(List.of(new EgressGrant(Protocol.UDP, "pypi.test", 443, 443)), Map.of());
        assertInstanceOf(Verdict.Refused.class, ad.decide("pypi.test", 443));
        for (String h : List.of("", "a b", "[::1", "-x.test", "x..test", "ex\u0000.test", "a".repeat(300))) {
            assertInstanceOf(Verdict.Refused.class, ad.decide(h, 443), h);
        }
        assertInstanceOf(Verdict.Refused.class, ad.decide("pypi.test", 0));
    }

    @Test
    void portRangesAndAnyPort() {
        Admission ad = admission(List.of(tcp("pypi.test", 8000, 8010), tcp("93.184.216.36", 0, 65535)), Map.of());
        assertInstanceOf(Verdict.Admitted.class, ad.decide("pypi.test", 8005));
        assertInstanceOf(Verdict.Refused.class, ad.decide("pypi.test", 8011));
        assertInstanceOf(Verdict.Admitted.class, ad.decide("93.184.216.36", 1));
    }
}
