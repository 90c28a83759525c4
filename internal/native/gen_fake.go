package native

import "github.com/brianvoe/gofakeit/v7"

// fakeGen is a realistic value from gofakeit, drawn from the value's own
// seeded stream. gofakeit builds its strings itself, so unlike the other
// generators this one allocates.
type fakeGen struct {
	f func(*gofakeit.Faker) string
}

// fakeMax bounds a realistic value: gofakeit's longest, a paragraph, is
// a few hundred bytes.
const fakeMax = 8 << 10

func (g *fakeGen) maxSize() int64 { return fakeMax }

func (g *fakeGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	c.seed(k)
	return appendString(dst, g.f(c.faker)), tString
}

// fakers are the realistic values ^fake offers, by name.
var fakers = []struct {
	name string
	f    func(*gofakeit.Faker) string
}{
	{"name", (*gofakeit.Faker).Name},
	{"firstName", (*gofakeit.Faker).FirstName},
	{"lastName", (*gofakeit.Faker).LastName},
	{"email", (*gofakeit.Faker).Email},
	{"phone", (*gofakeit.Faker).Phone},
	{"username", (*gofakeit.Faker).Username},
	{"street", (*gofakeit.Faker).Street},
	{"city", (*gofakeit.Faker).City},
	{"state", (*gofakeit.Faker).State},
	{"zip", (*gofakeit.Faker).Zip},
	{"country", (*gofakeit.Faker).Country},
	{"company", (*gofakeit.Faker).Company},
	{"jobTitle", (*gofakeit.Faker).JobTitle},
	{"productName", (*gofakeit.Faker).ProductName},
	{"color", (*gofakeit.Faker).Color},
	{"word", (*gofakeit.Faker).Word},
	{"noun", (*gofakeit.Faker).Noun},
	{"sentence", func(f *gofakeit.Faker) string { return f.Sentence() }},
	{"paragraph", func(f *gofakeit.Faker) string { return f.Paragraph() }},
	{"url", (*gofakeit.Faker).URL},
	{"ipv4", (*gofakeit.Faker).IPv4Address},
	{"userAgent", (*gofakeit.Faker).UserAgent},
}
