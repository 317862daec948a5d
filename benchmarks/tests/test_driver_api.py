"""The warm driver is an embedding application: it may use the exported ports API and the OSGi framework
API, never a class of an `internal` package (issue 19)."""
import glob, os, re, unittest

JAVA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "java")
ALLOWED = ("java.", "io.aasm.ports.", "io.aasm.bench.", "org.osgi.framework.", "org.osgi.util.tracker.")


class DriverApiTest(unittest.TestCase):
    def sources(self):
        files = sorted(glob.glob(os.path.join(JAVA, "**", "*.java"), recursive=True))
        self.assertTrue(files, "no driver sources under %s" % JAVA)
        return files

    def test_imports_only_the_exported_api(self):
        for f in self.sources():
            with open(f) as fh:
                text = fh.read()
            for imp in re.findall(r"^import\s+(?:static\s+)?([\w.]+)", text, re.M):
                self.assertTrue(imp.startswith(ALLOWED), "%s imports %s" % (os.path.basename(f), imp))

    def test_no_internal_name_anywhere(self):
        for f in self.sources():
            with open(f) as fh:
                code = "\n".join(l for l in fh.read().splitlines() if not l.strip().startswith(("*", "/*", "//")))
            self.assertNotRegex(code, r"\.internal\.", os.path.basename(f))


if __name__ == "__main__":
    unittest.main()
