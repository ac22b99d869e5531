// ua-parser-js 1.x (MIT) ships no type declarations; this covers the part we use.
// Stay on 1.x: 2.x is AGPL.
declare module 'ua-parser-js' {
  namespace UAParser {
    interface IBrowser {
      name: string | undefined;
      version: string | undefined;
      major: string | undefined;
    }
    interface IOS {
      name: string | undefined;
      version: string | undefined;
    }
    interface IDevice {
      /** console, mobile, tablet, smarttv, wearable, embedded, xr; undefined for desktops. */
      type: string | undefined;
      vendor: string | undefined;
      model: string | undefined;
    }
    interface IResult {
      ua: string;
      browser: IBrowser;
      os: IOS;
      device: IDevice;
    }
  }
  class UAParser {
    constructor(ua?: string);
    setUA(ua: string): this;
    getResult(): UAParser.IResult;
    getBrowser(): UAParser.IBrowser;
    getOS(): UAParser.IOS;
    getDevice(): UAParser.IDevice;
  }
  export = UAParser;
}
