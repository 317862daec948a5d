package io.aasm.transport.proxy.internal.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet4Address;
import java.util.List;
import org.junit.jupiter.api.Test;

class LiteralsTest {
    @Test
    void strictForms() {
        assertEquals("127.0.0.1", Literals.parse("127.0.0.1").orElseThrow().getHostAddress());
        assertEquals("0:0:0:0:0:0:0:1", Literals.parse("::1").orElseThrow().getHostAddress());
        assertEquals("2001:db8:0:0:0:0:0:1", Literals.parse("2001:db8::1").orElseThrow().getHostAddress());
        assertTrue(Literals.parse("::ffff:10.0.0.1").orElseThrow() instanceof Inet4Address, "mapped becomes IPv4");
        assertEquals("64:ff9b:0:0:0:0:a00:1", Literals.parse("64:ff9b::10.0.0.1").orElseThrow().getHostAddress());
        assertEquals("1:2:3:4:5:6:7:8", Literals.parse("1:2:3:4:5:6:7:8").orElseThrow().getHostAddress());
    }

    @Test
    void everythingElseIsNotALiteral() {
        for (String s : List.of("127.1", "2130706433", "0x7f000001", "0177.0.0.1", "256.0.0.1", "1.2.3.4.5", "1.2.3.",
                ":::1", "1::2::3", "1:2:3:4:5:6:7:8:9", "fe80::1%eth0", "12345::1", "::ffff:1.2.3", "", "a.b.c.d",
                "1:2:3:4:5:6:7::8")) {
            assertTrue(Literals.parse(s).isEmpty(), s);
        }
    }

    @Test
    void cidrBlocks() {
        Cidr c = Cidr.parse("10.0.0.0/8").orElseThrow();
        assertTrue(c.contains(Literals.parse("10.255.0.1").orElseThrow()));
        assertTrue(!c.contains(Literals.parse("11.0.0.1").orElseThrow()));
        assertTrue(Cidr.parse("172.16.0.0/12").orElseThrow().contains(Literals.parse("172.31.255.255").orElseThrow()));
        assertTrue(!Cidr.parse("172.16.0.0/12").orElseThrow().contains(Literals.parse("172.32.0.0").orElseThrow()));
        assertTrue(Cidr.parse("2001:db8::/32").orElseThrow().contains(Literals.parse("2001:db8:ffff::1").orElseThrow()));
        assertTrue(!Cidr.parse("::/0").orElseThrow().contains(Literals.parse("1.2.3.4").orElseThrow()));
        assertTrue(Cidr.parse("10.0.0.0/33").isEmpty());
    }
}
